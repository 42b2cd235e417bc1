package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The man page written at build time covers every command, and is troff that man can read. */
class ManPageTest {

    private static final Set<String> MACROS = Set.of(".TH", ".SH", ".SS", ".nf", ".fi", ".TP", ".B");

    @Test
    void everyVisibleCommandHasASection() {
        String page = ManPage.render();
        assertTrue(page.startsWith(".TH NVIDB 1 "), page);
        CommandLine root = Cli.create(new Context(Map.of(), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), false));
        List<String> missing = new java.util.ArrayList<>();
        collect(root, page, missing);
        assertEquals(List.of(), missing, "commands without a section");
        assertTrue(page.contains(".SH EXIT STATUS"), page);
        assertTrue(page.contains("nvidb job submit \\-\\-vram 20G \\-\\- python train.py"), "examples are kept");
        assertTrue(!page.contains("__warmup"), "hidden commands stay hidden");
    }

    private static void collect(CommandLine parent, String page, List<String> missing) {
        for (CommandLine command : parent.getSubcommands().values()) {
            if (command.getCommandSpec().usageMessage().hidden()) {
                continue;
            }
            String name = command.getCommandSpec().qualifiedName();
            if (!page.contains(".SS \"" + ManPage.escape(name) + "\"\n")) {
                missing.add(name);
            }
            collect(command, page, missing);
        }
    }

    @Test
    void onlyMacrosStartWithADot() {
        for (String line : ManPage.render().lines().toList()) {
            if (line.startsWith(".") || line.startsWith("'")) {
                assertTrue(MACROS.contains(line.split(" ")[0]), "stray control line: " + line);
            }
        }
        assertEquals("\\&.nvidb", ManPage.escape(".nvidb"));
        assertEquals("a\\ec \\-\\-x", ManPage.escape("a\\c --x"));
    }

    @Test
    void mainWritesNvidb1(@TempDir Path dir) throws Exception {
        ManPage.main(new String[] {dir.resolve("man").toString()});
        assertEquals(ManPage.render(), Files.readString(dir.resolve("man/nvidb.1")));
    }
}
