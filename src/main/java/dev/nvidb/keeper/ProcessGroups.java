package dev.nvidb.keeper;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Ends what a keeper started: a process group (the daemon, which {@code setsid} made leader of
 * its own session and group) or a session (the supervisor's), by pid and start time. No fork:
 * members are found in {@code /proc} and signalled through {@link ProcessHandle}, which itself
 * re-checks a process's start time before it signals.
 *
 * <p>A recycled number is never signalled. While any member of a group or session lives, its
 * id cannot be handed to a new process; so when the leader's pid now belongs to a process that
 * started at another time, the old group is empty and nothing is signalled, and when no process
 * has that pid, whatever still carries the id as group (session) is a genuine old member.
 */
final class ProcessGroups {

    private static final long POLL_MILLIS = 50;

    private ProcessGroups() {
    }

    /** True when the group (or session) of {@code leader} started at {@code leaderStart} has a live member. */
    static boolean alive(long leader, long leaderStart, boolean session) {
        return !members(leader, leaderStart, session).isEmpty();
    }

    /**
     * TERM every member, wait up to {@code grace} for them to end, then KILL what is left and
     * wait (bounded) for that too. Returns true when nothing of it is left.
     */
    static boolean terminate(long leader, long leaderStart, boolean session, Duration grace) {
        signal(members(leader, leaderStart, session), false);
        if (await(leader, leaderStart, session, grace)) {
            return true;
        }
        signal(members(leader, leaderStart, session), true);
        return await(leader, leaderStart, session, Duration.ofSeconds(5));
    }

    /** Sends TERM (or KILL) to one process, if it is still the one that started at {@code start}. */
    static void signal(long pid, long start, boolean kill) {
        ProcessEntry.same(pid, start).ifPresent(entry -> signal(List.of(entry), kill));
    }

    /** Waits up to {@code limit} for the process to end; true when it did. */
    static boolean awaitGone(long pid, long start, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (ProcessEntry.same(pid, start).isPresent()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            pause();
        }
        return true;
    }

    private static boolean await(long leader, long leaderStart, boolean session, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (alive(leader, leaderStart, session)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            pause();
        }
        return true;
    }

    private static List<ProcessEntry> members(long leader, long leaderStart, boolean session) {
        if (leader <= 1 || leaderStart <= 0) {
            return List.of();
        }
        Optional<ProcessEntry> holder = ProcessEntry.read(leader);
        if (holder.isPresent() && holder.get().startTicks() != leaderStart) {
            return List.of(); // the number was handed out again: the old group has no member left
        }
        long self = ProcessEntry.self();
        return ProcessEntry.all().stream()
                .filter(entry -> (session ? entry.session() : entry.pgrp()) == leader)
                .filter(entry -> entry.startTicks() >= leaderStart && entry.pid() != self)
                .toList();
    }

    private static void signal(List<ProcessEntry> entries, boolean kill) {
        for (ProcessEntry entry : entries) {
            if (ProcessEntry.same(entry.pid(), entry.startTicks()).isEmpty()) {
                continue;
            }
            ProcessHandle.of(entry.pid()).ifPresent(handle -> {
                if (kill) {
                    handle.destroyForcibly();
                } else {
                    handle.destroy();
                }
            });
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS); // a poll with a deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted while stopping the queue keeper", e);
        }
    }
}
