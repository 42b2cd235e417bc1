package dev.nvidb.keeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One process as {@code /proc/PID/stat} describes it: its process group, its session and its
 * start time in clock ticks since boot. Pid and start time together name a process for good: a
 * recycled pid has a later start time, so nothing here ever signals a process that merely got
 * the number of one that died. Reading it is one small file read, no fork.
 *
 * @param pid        the process id
 * @param pgrp       its process group
 * @param session    its session
 * @param startTicks when it started, in clock ticks since boot (field 22 of stat)
 */
record ProcessEntry(long pid, long pgrp, long session, long startTicks) {

    private static final Path PROC = Path.of("/proc");

    /** Whether this machine has a Linux {@code /proc} to read processes from. */
    static boolean available() {
        return Files.isReadable(PROC.resolve("self/stat"));
    }

    /** The process {@code pid} now, or empty when there is none (or it is a zombie). */
    static Optional<ProcessEntry> read(long pid) {
        if (pid <= 0) {
            return Optional.empty();
        }
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
            return parse(pid, stat);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone, or not ours to read
        }
    }

    /** Parses a stat line; the command name in parentheses may itself hold spaces and parentheses. */
    static Optional<ProcessEntry> parse(long pid, String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return Optional.empty();
        }
        String[] fields = stat.substring(close + 1).trim().split(" ");
        // fields[0] is field 3 (state): pgrp is field 5, session 6, starttime 22.
        if (fields.length < 20 || fields[0].equals("Z") || fields[0].equals("X")) {
            return Optional.empty();
        }
        return Optional.of(new ProcessEntry(pid, Long.parseLong(fields[2]), Long.parseLong(fields[3]),
                Long.parseLong(fields[19])));
    }

    /** The process {@code pid} if it is still the one that started at {@code startTicks}. */
    static Optional<ProcessEntry> same(long pid, long startTicks) {
        return read(pid).filter(entry -> entry.startTicks() == startTicks);
    }

    /** Every process of this machine that this user can see. */
    static List<ProcessEntry> all() {
        List<ProcessEntry> entries = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, path -> path.getFileName().toString().matches("[0-9]+"))) {
            for (Path dir : dirs) {
                read(Long.parseLong(dir.getFileName().toString())).ifPresent(entries::add);
            }
        } catch (IOException e) {
            return entries;
        }
        return entries;
    }

    /** This machine's boot id, or "" where there is none to read. */
    static String bootId() {
        try {
            return Files.readString(PROC.resolve("sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** This process's own pid. */
    static long self() {
        return ProcessHandle.current().pid();
    }
}
