package dev.nvidb.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code queue.notify:} section: where {@code queue daemon} delivers alerts, each alert once
 * per channel (docs/config.md).
 *
 * @param desktop               a desktop notification (notify-send, or osascript on macOS)
 * @param log                   a JSON line appended to {@code $NVIDB_HOME/alerts.log} (default true)
 * @param command               the hook as a string, or null: split into words without a shell, or
 *                              given to {@code /bin/sh -c} when {@code commandShell}
 * @param commandArgv           the hook as a list (argv, run as it is), or null; at most one of the two is set
 * @param commandShell          run the {@code command} string through {@code /bin/sh -c}
 * @param commandTimeoutSeconds how long the hook may run before it is killed (a failed delivery)
 * @param minSeverity           {@code info}, {@code warning} or {@code error}: alerts below it are not delivered
 */
public record NotifyConfig(boolean desktop, boolean log, String command, List<String> commandArgv,
                           boolean commandShell, int commandTimeoutSeconds, String minSeverity) {

    /** The severities, lowest first. */
    public static final List<String> SEVERITIES = List.of("info", "warning", "error");
    public static final int DEFAULT_COMMAND_TIMEOUT_SECONDS = 30;

    public NotifyConfig {
        commandArgv = commandArgv == null ? null : List.copyOf(commandArgv);
        Objects.requireNonNull(minSeverity, "minSeverity");
        if (command != null && commandArgv != null) {
            throw new IllegalArgumentException("a hook is a string or a list, not both");
        }
    }

    /** A hook given as a string (or none), the other settings at their defaults. */
    public NotifyConfig(boolean desktop, boolean log, String command) {
        this(desktop, log, command, null, false, DEFAULT_COMMAND_TIMEOUT_SECONDS, "info");
    }

    public static NotifyConfig defaults() {
        return new NotifyConfig(false, true, null);
    }

    /** Whether a hook is configured. */
    public boolean hasCommand() {
        return command != null || commandArgv != null;
    }

    /** Whether any channel is on. */
    public boolean any() {
        return desktop || log || hasCommand();
    }

    /** The program and its arguments, as run: the list, the string's words, or {@code /bin/sh -c} and the string. */
    public List<String> hookArgv() {
        if (commandArgv != null) {
            return commandArgv;
        }
        if (command == null) {
            return List.of();
        }
        return commandShell ? List.of("/bin/sh", "-c", command) : Words.split(command);
    }

    /** 1 for info, 2 for warning, 3 for error (unknown severities rank as info). */
    public static int rank(String severity) {
        return Math.max(1, SEVERITIES.indexOf(severity.toLowerCase(Locale.ROOT)) + 1);
    }

    public int minRank() {
        return rank(minSeverity);
    }

    /**
     * A command string split into words with no shell involved: blanks separate words, single
     * and double quotes group (a backslash escapes the next character outside single quotes);
     * nothing is expanded.
     */
    public static final class Words {

        private Words() {
        }

        /** The words; an {@link IllegalArgumentException} names an unclosed quote. */
        public static List<String> split(String text) {
            List<String> words = new java.util.ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean inWord = false;
            char quote = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quote == '\'') {
                    if (c == '\'') {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                } else if (c == '\\' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                    inWord = true;
                } else if (quote == '"') {
                    if (c == '"') {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                } else if (c == '\'' || c == '"') {
                    quote = c;
                    inWord = true;
                } else if (Character.isWhitespace(c)) {
                    if (inWord) {
                        words.add(word.toString());
                        word.setLength(0);
                        inWord = false;
                    }
                } else {
                    word.append(c);
                    inWord = true;
                }
            }
            if (quote != 0) {
                throw new IllegalArgumentException("an unclosed " + (quote == '"' ? "double" : "single") + " quote");
            }
            if (inWord) {
                words.add(word.toString());
            }
            return List.copyOf(words);
        }
    }
}
