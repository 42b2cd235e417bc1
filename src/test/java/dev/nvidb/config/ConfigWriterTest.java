package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Adding servers keeps the user's file intact, skips duplicates, and replaces the file atomically. */
class ConfigWriterTest {

    @TempDir
    Path dir;

    private static final ServerConfig NEW = new ServerConfig("new.example.com", 2222, "bob", "new", AuthMethod.KEY,
            null, null, "login", List.of(1));

    private TempHome temp() {
        return TempHome.in(dir);
    }

    private ConfigWriter writer() {
        return new ConfigWriter(temp().home());
    }

    @Test
    void createsDirectoryAndFileWithPrivateModes() throws IOException {
        Path configYml = temp().home().configYml();
        AddedServers result = writer().addServers(configYml, List.of(NEW));
        assertEquals(List.of(NEW), result.added());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(configYml.getParent())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(configYml)));
        assertEquals(List.of(NEW), temp().load().monitorServers());
    }

    static Stream<Arguments> existingFiles() {
        return Stream.of(
                Arguments.of("block list, dash at column 0", """
                        # my servers
                        basic:
                          remote: true   # always
                        servers:
                        - hostname: old-a   # the old one
                          port: 22
                        # a comment after the list
                        view:
                          mode: unified
                        """),
                Arguments.of("block list, indented dash, nested block gpus last", """
                        servers:
                          - hostname: old-a
                            gpus:
                              - 0
                              - 1
                          # trailing comment inside the list

                        queue:
                          lease_seconds: 40
                        """),
                Arguments.of("last server ends with a flow mapping item", """
                        servers:
                            -   {hostname: old-a, port: 22}
                        """),
                Arguments.of("no servers key", """
                        # only settings so far
                        basic:
                          remote: false
                        """),
                Arguments.of("servers key with no value", """
                        servers:   # none yet
                        queue:
                          headroom_mb: 100
                        """),
                Arguments.of("empty flow list", """
                        servers: []  # none yet
                        view:
                          mouse: false
                        """),
                Arguments.of("only comments", "# nothing here yet\n"),
                Arguments.of("no trailing newline", "basic:\n  remote: true"),
                Arguments.of("CRLF line endings", "# windows\r\nservers:\r\n  - hostname: old-a\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("existingFiles")
    void appendsKeepingEveryExistingLine(String name, String original) throws IOException {
        temp().config(original);
        List<ServerConfig> before = temp().load().monitorServers();
        NvidbConfig settingsBefore = temp().load();

        writer().addServers(temp().home().configYml(), List.of(NEW, ServerConfig.ofHost("alias-2")));

        String written = Files.readString(temp().home().configYml());
        assertLinesKeptInOrder(original, written);
        NvidbConfig after = temp().load();
        List<ServerConfig> expected = new java.util.ArrayList<>(before);
        expected.addAll(List.of(NEW, ServerConfig.ofHost("alias-2")));
        assertEquals(expected, after.monitorServers());
        assertEquals(settingsBefore.basic(), after.basic());
        assertEquals(settingsBefore.view(), after.view());
        assertEquals(settingsBefore.queue(), after.queue());
    }

    /** Every original line survives, in order (the empty servers value is the one line allowed to lose its value). */
    private static void assertLinesKeptInOrder(String original, String written) {
        List<String> out = written.lines().toList();
        int at = 0;
        for (String line : original.lines().toList()) {
            String expected = line.replace("servers: []", "servers: ");
            while (at < out.size() && !out.get(at).equals(expected)) {
                at++;
            }
            assertTrue(at < out.size(), () -> "line lost or reordered: '" + line + "' in:\n" + written);
            at++;
        }
    }

    @Test
    void skipsServersWhoseNameExistsAndWritesNothingWhenAllAreSkipped() throws IOException {
        temp().config("servers:\n  - hostname: gpu-a.example.com\n    nickname: gpu-a\n  - hostname: b\n");
        Path configYml = temp().home().configYml();
        String original = Files.readString(configYml);
        ServerConfig sameNickname = new ServerConfig("other", null, null, "gpu-a", null, null, null, null, null);
        AddedServers result = writer().addServers(configYml, List.of(sameNickname, ServerConfig.ofHost("b")));
        assertEquals(List.of(), result.added());
        assertEquals(List.of(sameNickname, ServerConfig.ofHost("b")), result.skipped());
        assertEquals(original, Files.readString(configYml));
    }

    @Test
    void skipsARepeatWithinOneBatch() {
        AddedServers result = writer().addServers(temp().home().configYml(),
                List.of(ServerConfig.ofHost("c"), ServerConfig.ofHost("c"), ServerConfig.ofHost("d")));
        assertEquals(List.of(ServerConfig.ofHost("c"), ServerConfig.ofHost("d")), result.added());
        assertEquals(List.of(ServerConfig.ofHost("c")), result.skipped());
        assertEquals(2, temp().load().monitorServers().size());
    }

    @Test
    void replacesTheFileByRenameAndTightensItsMode() throws IOException {
        temp().config("servers:\n  - hostname: a\n");
        Path configYml = temp().home().configYml();
        Files.setPosixFilePermissions(configYml, PosixFilePermissions.fromString("rw-r--r--"));
        Path hardLink = dir.resolve("old-inode");
        Files.createLink(hardLink, configYml);

        writer().addServers(configYml, List.of(NEW));

        assertEquals("servers:\n  - hostname: a\n", Files.readString(hardLink), "old inode untouched: a rename, not a rewrite");
        assertTrue(Files.readString(configYml).contains("new.example.com"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(configYml)));
        try (Stream<Path> files = Files.list(configYml.getParent())) {
            assertEquals(List.of(".config.yml.lock", "config.yml"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temp file left behind");
        }
    }

    @Test
    void writesThroughASymlinkedConfig() throws IOException {
        Path real = dir.resolve("dotfiles/config.yml");
        Files.createDirectories(real.getParent());
        Files.writeString(real, "servers:\n  - hostname: a\n");
        Files.createDirectories(temp().home().dir());
        Files.createSymbolicLink(temp().home().configYml(), real);

        writer().addServers(temp().home().configYml(), List.of(NEW));

        assertTrue(Files.isSymbolicLink(temp().home().configYml()));
        assertTrue(Files.readString(real).contains("new.example.com"));
    }

    static Stream<Arguments> refusedFiles() {
        return Stream.of(
                Arguments.of("invalid existing file", "servers:\n  - hostname: a\n    prot: 22\n",
                        "~/.nvidb/config.yml:3: unknown key 'prot' in server 'a' (did you mean 'port'?)"),
                Arguments.of("flow-style list", "servers: [{hostname: a}]\n",
                        "~/.nvidb/config.yml:1: cannot add servers to a flow-style [...] servers list"),
                Arguments.of("flow-style top level", "{servers: [{hostname: a}]}\n",
                        "~/.nvidb/config.yml: cannot add servers to a flow-style {...} file"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void refusesAndLeavesTheFileAlone(String name, String original, String message) throws IOException {
        temp().config(original);
        Path configYml = temp().home().configYml();
        ConfigException error = assertThrows(ConfigException.class, () -> writer().addServers(configYml, List.of(NEW)));
        assertEquals(message, error.getMessage());
        assertEquals(original, Files.readString(configYml));
    }

    static Stream<ServerConfig> servers() {
        return Stream.of(
                ServerConfig.ofHost("alias"),
                NEW,
                new ServerConfig("10.0.0.42", null, null, "GPU \"box\": #1 \\ ü", AuthMethod.PASSWORD, null,
                        "p@ss: w#rd \"q\"\tx", null, List.of()),
                new ServerConfig("h", 22, "u", null, AuthMethod.AGENT, Path.of("/etc/keys/id"), null,
                        "login-a,alice@login-b:2222", List.of(0, 1, 2)));
    }

    @ParameterizedTest
    @MethodSource("servers")
    void renderedServerLoadsBackEqual(ServerConfig server) {
        writer().addServers(temp().home().configYml(), List.of(server));
        assertEquals(List.of(server), temp().load().monitorServers());
    }

    @Test
    void rendersDefaultsOmittedAndHomeAsTilde() {
        ServerConfig server = new ServerConfig("gpu-a", 22, "alice", "a", AuthMethod.AUTO,
                dir.resolve(".ssh/id_ed25519"), null, null, List.of(0, 1));
        assertEquals("""
                - hostname: "gpu-a"
                  port: 22
                  username: "alice"
                  nickname: "a"
                  identityfile: "~/.ssh/id_ed25519"
                  gpus: [0, 1]
                """, writer().render(server));
    }
}
