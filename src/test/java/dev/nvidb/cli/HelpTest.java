package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every command and subcommand of the whole tree answers {@code --help} and {@code -h} (exit 0,
 * a usage naming the command, a line of purpose), {@code nvidb help CMD…} prints the same, and
 * {@code nvidb completion} covers every command.
 */
class HelpTest {

    @TempDir
    Path home;

    private Map<String, String> env() {
        return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
    }

    /** Every visible command as the words that name it ({@code []} for nvidb itself), with its spec. */
    private static List<CommandSpec> commands() {
        Context context = new Context(Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                false);
        List<CommandSpec> all = new ArrayList<>();
        walk(Cli.create(context), all);
        return all;
    }

    private static void walk(CommandLine command, List<CommandSpec> into) {
        if (command.getCommandSpec().usageMessage().hidden()) {
            return;
        }
        into.add(command.getCommandSpec());
        command.getSubcommands().values().forEach(child -> walk(child, into));
    }

    private static List<String> words(CommandSpec spec) {
        List<String> words = new ArrayList<>(Arrays.asList(spec.qualifiedName().split(" ")));
        return words.subList(1, words.size());
    }

    @Test
    void theTreeIsWhole() {
        List<String> names = commands().stream().map(CommandSpec::qualifiedName).toList();
        assertTrue(names.containsAll(List.of("nvidb", "nvidb ls", "nvidb job submit", "nvidb job purge",
                "nvidb queue unignore", "nvidb help", "nvidb completion")), names.toString());
        assertEquals(1 + count(CommandTree.ROOT) - 1, names.size(), "every branch but the hidden warm-up: " + names);
    }

    private static int count(List<CommandTree.Branch> branches) {
        return branches.stream().mapToInt(branch -> 1 + count(branch.children())).sum();
    }

    @Test
    void everyCommandAnswersHelpAndDashH() {
        for (CommandSpec spec : commands()) {
            String name = spec.qualifiedName();
            String[] description = spec.usageMessage().description();
            assertTrue(description.length > 0 && !description[0].isBlank(), name + " has a line of purpose");
            for (String flag : List.of("--help", "-h")) {
                String[] args = Stream.concat(words(spec).stream(), Stream.of(flag)).toArray(String[]::new);
                CliRun run = CliRun.run(env(), args);
                assertEquals(0, run.exitCode(), name + " " + flag + ": " + run.stderr());
                assertTrue(run.stdout().startsWith("Usage: " + name), name + " " + flag + ":\n" + run.stdout());
                assertTrue(run.stdout().contains(description[0]), name + " " + flag + ":\n" + run.stdout());
                assertTrue(run.stdout().contains("-h, --help"), name + " " + flag + ":\n" + run.stdout());
                assertEquals("", run.stderr(), name + " " + flag);
            }
        }
    }

    @Test
    void helpCommandPrintsTheSameAsDashDashHelp() {
        for (CommandSpec spec : commands()) {
            List<String> words = words(spec);
            String[] help = Stream.concat(Stream.of("help"), words.stream()).toArray(String[]::new);
            String[] dashed = Stream.concat(words.stream(), Stream.of("--help")).toArray(String[]::new);
            CliRun viaHelp = CliRun.run(env(), help);
            assertEquals(0, viaHelp.exitCode(), String.join(" ", help) + ": " + viaHelp.stderr());
            assertEquals(CliRun.run(env(), dashed).stdout(), viaHelp.stdout(), String.join(" ", help));
        }
    }

    @Test
    void mainCommandsShowExamples() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"job", "submit", "--help"},
                new String[] {"job", "--help"}, new String[] {"queue", "status", "--help"},
                new String[] {"job", "wait", "--help"}, new String[] {"add", "--help"})) {
            CliRun run = CliRun.run(env(), args);
            assertTrue(run.stdout().contains("Examples:\n  nvidb "), String.join(" ", args) + ":\n" + run.stdout());
        }
    }

    /**
     * Read at 80 columns (no terminal, no {@code $COLUMNS}), every help keeps its examples one to a
     * line: an example with its comment that does not fit is broken by picocli at column 80 and its
     * tail lands at the start of the next line, where it reads as garbage.
     */
    @Test
    void everyExampleFitsItsLineAtEightyColumns() {
        List<String> broken = new ArrayList<>();
        for (CommandSpec spec : commands()) {
            String[] args = Stream.concat(words(spec).stream(), Stream.of("--help")).toArray(String[]::new);
            String[] lines = CliRun.run(env(), args).stdout().split("\n", -1);
            boolean examples = false;
            for (String line : lines) {
                if (line.length() > 80) {
                    broken.add(spec.qualifiedName() + ": longer than 80 columns: " + line);
                }
                if (line.equals("Examples:")) {
                    examples = true;
                } else if (line.isEmpty()) {
                    examples = false;
                } else if (examples && !line.startsWith("  ")) {
                    broken.add(spec.qualifiedName() + ": a wrapped example: '" + line + "'");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void helpForAnUnknownCommandIsAUsageError() {
        CliRun run = CliRun.run(env(), "help", "job", "frobnicate");
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().startsWith("nvidb: 'nvidb job' has no command 'frobnicate'"), run.stderr());
        assertEquals(2, CliRun.run(env(), "help", "__warmup").exitCode(), "hidden commands have no help");
    }

    @Test
    void completionCoversEveryCommandForBashAndZsh() {
        CliRun bash = CliRun.run(env(), "completion", "bash");
        assertEquals(0, bash.exitCode(), bash.stderr());
        assertTrue(bash.stdout().startsWith("#!/usr/bin/env bash"), bash.stdout());
        assertTrue(bash.stdout().contains("complete -F _complete_nvidb"), bash.stdout());
        for (CommandSpec spec : commands()) {
            if (!words(spec).isEmpty()) {
                // picocli drops the hyphen of a command's name (release-group) in its function's name
                String function = "_picocli_nvidb_" + String.join("_", words(spec)).toLowerCase().replace("-", "");
                assertTrue(bash.stdout().contains(function + "()"), "completion for " + spec.qualifiedName());
            }
        }
        assertTrue(bash.stdout().contains("--vram"), "options are completed too");
        assertFalse(bash.stdout().contains("__warmup"), "hidden commands are not offered");
        CliRun zsh = CliRun.run(env(), "completion", "zsh");
        assertEquals(0, zsh.exitCode(), zsh.stderr());
        assertTrue(zsh.stdout().startsWith("#compdef nvidb\n"), zsh.stdout());
        assertTrue(zsh.stdout().contains("bashcompinit"), zsh.stdout());
        assertEquals(2, CliRun.run(env(), "completion", "fish").exitCode());
    }

    @Test
    void versionAloneStillAnswers() {
        CliRun run = CliRun.run(env(), "--version");
        assertEquals(0, run.exitCode());
        assertTrue(run.stdout().startsWith("nvidb "), run.stdout());
    }
}
