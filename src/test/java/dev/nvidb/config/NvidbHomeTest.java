package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the files live, and how paths are shown and expanded. */
class NvidbHomeTest {

    @Test
    void defaultsToDotNvidbUnderHome() {
        NvidbHome home = NvidbHome.fromEnvironment(Map.of("HOME", "/home/alice"), "/ignored");
        assertEquals(Path.of("/home/alice/.nvidb"), home.dir());
        assertEquals(Path.of("/home/alice/.nvidb/queue.db"), home.queueDb());
        assertEquals(Path.of("/home/alice/.nvidb/alerts.log"), home.alertsLog());
        assertEquals(Path.of("/home/alice/.nvidb/backups"), home.backupsDir());
    }

    @Test
    void fallsBackToUserHomePropertyWithoutHome() {
        assertEquals(Path.of("/prop/home/.nvidb"), NvidbHome.fromEnvironment(Map.of(), "/prop/home").dir());
        assertEquals(Path.of("/prop/home/.nvidb"), NvidbHome.fromEnvironment(Map.of("HOME", ""), "/prop/home").dir());
    }

    @Test
    void nvidbHomeWinsAndMayUseTilde() {
        assertEquals(Path.of("/data/nv"),
                NvidbHome.fromEnvironment(Map.of("HOME", "/h", "NVIDB_HOME", "/data/nv"), "/x").dir());
        assertEquals(Path.of("/h/nv"), NvidbHome.fromEnvironment(Map.of("HOME", "/h", "NVIDB_HOME", "~/nv"), "/x").dir());
        assertEquals(Path.of("/h/.nvidb"), NvidbHome.fromEnvironment(Map.of("HOME", "/h", "NVIDB_HOME", ""), "/x").dir());
    }

    @Test
    void displaysPathsUnderHomeWithTilde() {
        NvidbHome home = NvidbHome.fromEnvironment(Map.of("HOME", "/home/alice"), "/x");
        assertEquals("~/.nvidb/config.yml", home.display(home.configYml()));
        assertEquals("~", home.display(Path.of("/home/alice")));
        assertEquals("/home/alicex/config.yml", home.display(Path.of("/home/alicex/config.yml")));
        assertEquals("/etc/nvidb.yml", home.display(Path.of("/etc/nvidb.yml")));
    }

    @Test
    void expandsOnlyALeadingTilde() {
        NvidbHome home = NvidbHome.fromEnvironment(Map.of("HOME", "/home/alice"), "/x");
        assertEquals(Path.of("/home/alice/.ssh/id"), home.expand("~/.ssh/id"));
        assertEquals(Path.of("/home/alice"), home.expand("~"));
        assertEquals(Path.of("/keys/~/id"), home.expand("/keys/~/id"));
    }
}
