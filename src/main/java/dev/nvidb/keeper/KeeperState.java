package dev.nvidb.keeper;

import java.nio.file.Path;
import java.time.Instant;

/**
 * Whether something keeps the queue moving for one {@code NVIDB_HOME}: which keeper is
 * installed, its condition, and what is known of its processes. Fields not known for a kind
 * (a systemd keeper read without asking systemctl) are null.
 *
 * @param kind          which keeper is installed
 * @param condition     up, failing (its daemon keeps exiting at once) or down
 * @param supervisorPid the shell supervisor's pid while it runs (systemd: the manager's, not shown)
 * @param daemonPid     the daemon's pid while it runs
 * @param since         when the supervisor (the systemd unit) started
 * @param daemonSince   when the running daemon was started
 * @param restarts      how many times the daemon was started again
 * @param lastRestartAt when it last was
 * @param lastExit      the exit status of the daemon's last run
 * @param nextStartAt   while the daemon is being restarted: when it starts again
 * @param interval      the daemon's {@code --interval}, as installed
 * @param file          the keeper's file: the script or the unit
 * @param detail        why it is down or failing, or null
 */
public record KeeperState(Kind kind, Condition condition, Long supervisorPid, Long daemonPid, Instant since,
                          Instant daemonSince, Integer restarts, Instant lastRestartAt, Integer lastExit,
                          Instant nextStartAt, String interval, Path file, String detail) {

    /** The two keepers. */
    public enum Kind {
        /** {@code $NVIDB_HOME/queue-keeper.sh}, started detached. */
        SHELL,
        /** The user unit {@code nvidb-queue.service}. */
        SYSTEMD;

        /** The name in text and JSON: {@code shell}, {@code systemd}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** How the keeper stands. */
    public enum Condition {
        /** It runs (its daemon runs, or is being started again after a single exit). */
        UP,
        /** It runs, but its daemon exited within 30 s of its start three times in a row. */
        FAILING,
        /** Nothing runs: the queue moves only when a command ticks it. */
        DOWN;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** True only while something keeps the queue moving. */
    public boolean up() {
        return condition == Condition.UP;
    }

    static KeeperState down(Kind kind, Path file, String interval, String detail) {
        return new KeeperState(kind, Condition.DOWN, null, null, null, null, null, null, null, null, interval, file,
                detail);
    }
}
