package dev.nvidb.keeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the shell supervisor wrote into {@code queue-keeper.pid} (key=value lines, replaced
 * atomically): itself and its daemon by pid and start time, and its restart history. Unknown
 * keys are ignored and a missing or malformed value reads as absent, so a file from another
 * version of the script never fails a status.
 *
 * @param supervisorPid   the supervisor's pid (0 when absent)
 * @param supervisorStart its start time in clock ticks since boot
 * @param bootId          the boot the pids belong to
 * @param startedAt       when the supervisor started
 * @param interval        the daemon's {@code --interval}
 * @param daemonPid       the daemon's pid, 0 while it is being restarted
 * @param daemonStart     its start time in clock ticks
 * @param daemonSince     when the supervisor started it
 * @param restarts        how many times the supervisor started it again
 * @param lastRestartAt   when it last did
 * @param lastExit        the exit status of the daemon's last run, null before the first exit
 * @param quickExits      exits in a row within 30 s of a start
 * @param nextStartAt     while restarting: when the daemon starts again
 */
record SupervisorRecord(long supervisorPid, long supervisorStart, String bootId, Instant startedAt, String interval,
                        long daemonPid, long daemonStart, Instant daemonSince, int restarts, Instant lastRestartAt,
                        Integer lastExit, int quickExits, Instant nextStartAt) {

    /** The record in {@code file}, or empty when there is none (never started, or stopped cleanly). */
    static Optional<SupervisorRecord> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.of(parse(text));
    }

    static SupervisorRecord parse(String text) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1).strip());
            }
        }
        Long lastExit = number(values, "last_exit");
        return new SupervisorRecord(orZero(values, "supervisor_pid"), orZero(values, "supervisor_start"),
                values.getOrDefault("boot_id", ""), time(values, "started_at"), values.get("interval"),
                orZero(values, "daemon_pid"), orZero(values, "daemon_start"), time(values, "daemon_since"),
                (int) orZero(values, "restarts"), time(values, "last_restart_at"),
                lastExit == null ? null : lastExit.intValue(), (int) orZero(values, "quick_exits"),
                time(values, "next_start_at"));
    }

    /** The supervisor, if it is still the process that wrote this record. */
    Optional<ProcessEntry> supervisor() {
        return alive(supervisorPid, supervisorStart);
    }

    /** The daemon, if it is still the process the supervisor started. */
    Optional<ProcessEntry> daemon() {
        return alive(daemonPid, daemonStart);
    }

    private Optional<ProcessEntry> alive(long pid, long start) {
        if (pid <= 0 || start <= 0 || (!bootId.isEmpty() && !bootId.equals(ProcessEntry.bootId()))) {
            return Optional.empty();
        }
        return ProcessEntry.same(pid, start);
    }

    private static long orZero(Map<String, String> values, String key) {
        Long value = number(values, key);
        return value == null ? 0 : value;
    }

    private static Long number(Map<String, String> values, String key) {
        String value = values.get(key);
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Instant time(Map<String, String> values, String key) {
        Long seconds = number(values, key);
        return seconds == null || seconds <= 0 ? null : Instant.ofEpochSecond(seconds);
    }
}
