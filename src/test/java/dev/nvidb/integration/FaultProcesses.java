package dev.nvidb.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The campaign's own processes on this machine, found in {@code /proc} by a marker variable in
 * their environment: every {@code bin/nvidb} the campaign starts carries it, and so do the
 * processes those start here (the submit ticker, the keeper's supervisor and its daemon). Jobs
 * run on the nodes through sshd, which passes no environment on, so they never carry it.
 */
final class FaultProcesses {

    /** The variable that marks the campaign's processes. */
    static final String MARKER = "NVIDB_FAULT_CAMPAIGN";

    /** One process: its pid and its command line, words joined by spaces. */
    record Found(long pid, String commandLine) {
    }

    private final String marker;

    FaultProcesses(String marker) {
        this.marker = marker;
    }

    /** The marked processes whose command line passes {@code filter}. */
    List<Found> find(Predicate<String> filter) {
        List<Found> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String environment = read(entry.resolve("environ"));
                if (!environment.contains("\0" + MARKER + "=" + marker + "\0")
                        && !environment.startsWith(MARKER + "=" + marker + "\0")) {
                    continue;
                }
                String commandLine = read(entry.resolve("cmdline")).replace('\0', ' ').strip();
                if (!commandLine.isEmpty() && filter.test(commandLine)) {
                    found.add(new Found(Long.parseLong(name), commandLine));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return found;
    }

    /** SIGKILLs the marked processes whose command line passes {@code filter}; returns how many. */
    int kill(Predicate<String> filter) {
        int killed = 0;
        for (Found process : find(filter)) {
            if (ProcessHandle.of(process.pid()).map(ProcessHandle::destroyForcibly).orElse(false)) {
                killed++;
            }
        }
        return killed;
    }

    static boolean isTicker(String commandLine) {
        return commandLine.contains(" queue tick ") && commandLine.contains("--background");
    }

    static boolean isDaemon(String commandLine) {
        return commandLine.contains(" queue daemon");
    }

    static boolean isKeeper(String commandLine) {
        return commandLine.contains("queue-keeper.sh");
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }
}
