package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Every nvidb command line that skills/nvidb-queue/SKILL.md shows, in code blocks and in inline
 * code, must be accepted by the real parser, and every {@code --option} the skill names must
 * exist: an agent following the skill must never hit "Unknown option".
 */
class SkillCommandsTest {

    private static final Path SKILL = Path.of(System.getProperty("nvidb.project.dir", "."),
            "skills/nvidb-queue/SKILL.md");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`\n]+)`");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");

    @Test
    void everyCommandTheSkillShowsParses() throws IOException {
        List<String> commands = commands(Files.readString(SKILL));
        assertTrue(commands.size() >= 30, "expected the skill to show many commands, found " + commands);
        List<String> rejected = new ArrayList<>();
        for (String command : commands) {
            try {
                parse(command);
            } catch (ParameterException e) {
                rejected.add(command + "\n    " + e.getMessage());
            }
        }
        if (!rejected.isEmpty()) {
            fail("the parser rejects commands the skill shows:\n  " + String.join("\n  ", rejected));
        }
    }

    @Test
    void everyOptionTheSkillNamesExists() throws IOException {
        Set<String> known = new TreeSet<>();
        collectOptions(Cli.create(context()).getCommandSpec(), known);
        Set<String> unknown = new TreeSet<>();
        Matcher code = INLINE_CODE.matcher(withoutFences(Files.readString(SKILL)));
        while (code.find()) {
            Matcher option = OPTION.matcher(code.group(1));
            while (option.find()) {
                if (!known.contains(option.group())) {
                    unknown.add(option.group());
                }
            }
        }
        assertEquals(Set.of(), unknown, "options the skill names that no nvidb command has");
    }

    @Test
    void theCheckRejectsWhatDoesNotExist() {
        assertThrows(ParameterException.class, () -> parse("nvidb job submit --json --vram-per-gpu 20G -- python x.py"));
        assertThrows(ParameterException.class, () -> parse("nvidb job wait 12 --lines 40"));
        assertThrows(ParameterException.class, () -> parse("nvidb job frobnicate 12"));
        parse("nvidb job submit --json --vram 20G -- python train.py --not-an-nvidb-option");
    }

    @Test
    void splitsLikeAShell() {
        assertEquals(List.of("nvidb", "job", "submit", "--", "python a.py && echo \"x\" > out", "$HOME", "it's"),
                words("nvidb job submit -- 'python a.py && echo \"x\" > out' \"$HOME\" it\\'s  # comment"));
        assertEquals(List.of("nvidb", "job", "submit", "--json", "…"), words("nvidb job submit --json … | jq .job.id"));
        assertEquals(List.of("nvidb", "queue", "status"), words("nvidb queue status; echo done"));
        assertEquals(List.of("nvidb", "job", "note", "12", "a # b"), words("nvidb job note 12 \"a # b\""));
    }

    /** Command lines in fenced code blocks and inline code that start with nvidb or bin/nvidb. */
    static List<String> commands(String markdown) {
        List<String> commands = new ArrayList<>();
        boolean fenced = false;
        StringBuilder continued = null;
        for (String raw : markdown.split("\n", -1)) {
            String line = raw.strip();
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                continue;
            }
            if (continued != null) {
                continued.append(' ').append(line);
            } else if (isCommand(line)) {
                continued = new StringBuilder(line);
            } else {
                continue;
            }
            if (continued.toString().endsWith("\\")) {
                continued.setLength(continued.length() - 1);
            } else {
                commands.add(continued.toString().strip());
                continued = null;
            }
        }
        Matcher code = INLINE_CODE.matcher(withoutFences(markdown));
        while (code.find()) {
            if (isCommand(code.group(1).strip())) {
                commands.add(code.group(1).strip());
            }
        }
        return commands;
    }

    private static boolean isCommand(String line) {
        return line.startsWith("nvidb ") || line.startsWith("bin/nvidb ");
    }

    private static String withoutFences(String markdown) {
        StringBuilder prose = new StringBuilder();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.append(line).append('\n');
            }
        }
        return prose.toString();
    }

    private static void parse(String command) {
        List<String> words = words(command);
        Cli.create(context()).parseArgs(words.subList(1, words.size()).toArray(String[]::new));
    }

    private static Context context() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        return new Context(Map.of(), sink, sink, false);
    }

    private static void collectOptions(CommandSpec spec, Set<String> names) {
        spec.options().forEach(option -> names.addAll(List.of(option.names())));
        spec.subcommands().values().forEach(sub -> collectOptions(sub.getCommandSpec(), names));
    }

    /**
     * Splits one command line as a POSIX shell would for the first simple command: single
     * quotes keep everything, double quotes keep everything but {@code \"}, {@code \\}, a
     * backslash outside quotes escapes the next character, {@code #} at the start of a word
     * begins a comment, and an unquoted {@code |}, {@code ;}, {@code &} or {@code >} ends the
     * command. Variables and {@code $(…)} are kept as written (the parser sees them literally).
     */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated ' in: " + line);
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end;
            } else if (c == '"') {
                inWord = true;
                for (i++; i < line.length() && line.charAt(i) != '"'; i++) {
                    char d = line.charAt(i);
                    if (d == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                        d = line.charAt(++i);
                    }
                    word.append(d);
                }
                if (i >= line.length()) {
                    throw new IllegalArgumentException("unterminated \" in: " + line);
                }
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else if (c == '#' && !inWord) {
                break;
            } else if ("|;&>".indexOf(c) >= 0) {
                break;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
