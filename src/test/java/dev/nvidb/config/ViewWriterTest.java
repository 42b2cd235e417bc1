package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TUI's layout written back into view: without touching anything else in the file. */
class ViewWriterTest {

    @TempDir
    Path dir;

    private static final String COMMENTED = """
            # my lab
            basic:
              remote: true          # always the servers
            servers:
              - hostname: gpu-a     # the big one
            view:
              mode: per-node   # v toggles this
              # detail is left to the TUI
              sort: node
            queue:
              headroom_mb: 1024  # keep
            """;

    private Path write(String text) throws IOException {
        Path file = TempHome.in(dir).home().configYml();
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private ViewWriter writer() {
        return new ViewWriter(TempHome.in(dir).home());
    }

    private static Map<String, String> keys(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void replacesValuesOnTheirLinesAndAddsNewKeysAtTheEndOfTheSection() throws IOException {
        Path file = write(COMMENTED);
        writer().write(file, keys("mode", "unified", "detail", "true"));
        assertEquals("""
                # my lab
                basic:
                  remote: true          # always the servers
                servers:
                  - hostname: gpu-a     # the big one
                view:
                  mode: unified   # v toggles this
                  # detail is left to the TUI
                  sort: node
                  detail: true
                queue:
                  headroom_mb: 1024  # keep
                """, Files.readString(file));
        ViewConfig view = TempHome.in(dir).load().view();
        assertEquals(ViewMode.UNIFIED, view.mode());
        assertEquals(Boolean.TRUE, view.detail());
    }

    @Test
    void appendsAViewSectionWhenThereIsNone() throws IOException {
        Path file = write("# servers only\nservers:\n  - hostname: gpu-a\n");
        writer().write(file, keys("history", "true"));
        assertEquals("# servers only\nservers:\n  - hostname: gpu-a\n\nview:\n  history: true\n", Files.readString(file));
    }

    @Test
    void createsTheFileWhenMissing() throws IOException {
        Path file = TempHome.in(dir).home().configYml();
        writer().write(file, keys("mode", "unified"));
        assertEquals("view:\n  mode: unified\n", Files.readString(file));
    }

    @Test
    void fillsAnEmptyViewKeyKeepingItsComment() throws IOException {
        Path file = write("view:   # layout\nservers: []\n");
        writer().write(file, keys("group", "false"));
        assertEquals("view:   # layout\n  group: false\nservers: []\n", Files.readString(file));
    }

    @Test
    void aFlowStyleViewIsRefusedAndTheFileLeftAlone() throws IOException {
        Path file = write("view: {mode: unified}\n");
        assertThrows(ConfigException.class, () -> writer().write(file, keys("mode", "per-node")));
        assertEquals("view: {mode: unified}\n", Files.readString(file));
    }

    @Test
    void writingTheSameValueChangesNothing() throws IOException {
        Path file = write(COMMENTED);
        writer().write(file, keys("mode", "per-node"));
        assertEquals(COMMENTED, Files.readString(file));
        assertTrue(Files.readString(file).contains("# v toggles this"));
    }
}
