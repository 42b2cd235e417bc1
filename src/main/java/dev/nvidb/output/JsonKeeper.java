package dev.nvidb.output;

import dev.nvidb.keeper.KeeperState;
import java.math.BigDecimal;
import java.util.List;

/**
 * The keeper's documents ({@code queue keeper … --json}) and the {@code keeper} object of
 * {@code queue status --json}; docs/json.md describes every field.
 *
 * @param kind          {@code shell} or {@code systemd}
 * @param up            true only while something keeps the queue moving
 * @param state         {@code up}, {@code failing} (the daemon keeps exiting at once) or {@code down}
 * @param supervisorPid the shell supervisor's pid while it runs
 * @param daemonPid     the daemon's pid while it runs
 * @param since         when the supervisor started
 * @param daemonSince   when the running daemon was started
 * @param restarts      how often the daemon was started again
 * @param lastRestartAt when it last was
 * @param lastExit      the exit status of the daemon's last run
 * @param nextStartAt   while the daemon is being restarted: when it starts again
 * @param interval      the daemon's {@code --interval} in seconds, as installed
 * @param file          the script or the unit file
 * @param detail        why it is down or failing
 */
public record JsonKeeper(String kind, boolean up, String state, Long supervisorPid, Long daemonPid, BigDecimal since,
                         BigDecimal daemonSince, Integer restarts, BigDecimal lastRestartAt, Integer lastExit,
                         BigDecimal nextStartAt, BigDecimal interval, String file, String detail) {

    /** The object for {@code state}, null for none. */
    public static JsonKeeper of(KeeperState state) {
        if (state == null) {
            return null;
        }
        BigDecimal interval = null;
        try {
            interval = state.interval() == null ? null : new BigDecimal(state.interval());
        } catch (NumberFormatException e) {
            interval = null;
        }
        return new JsonKeeper(state.kind().label(), state.up(), state.condition().label(), state.supervisorPid(),
                state.daemonPid(), JsonJob.seconds(state.since()), JsonJob.seconds(state.daemonSince()), state.restarts(),
                JsonJob.seconds(state.lastRestartAt()), state.lastExit(), JsonJob.seconds(state.nextStartAt()), interval,
                state.file() == null ? null : state.file().toString(), state.detail());
    }

    /** {@code queue keeper status --json}: {@code ok} is {@code up}; {@code keeper} null when none is installed. */
    public record Status(int schemaVersion, boolean ok, boolean installed, JsonKeeper keeper) {

        public static Status of(KeeperState state) {
            return new Status(Json.SCHEMA_VERSION, state != null && state.up(), state != null, JsonKeeper.of(state));
        }
    }

    /**
     * {@code queue keeper install --json}: what was written; {@code started} and {@code keeper}
     * with {@code --start}; {@code replaced} the kind removed; {@code linger} the systemd advice.
     */
    public record Installed(int schemaVersion, boolean ok, String kind, String file, String replaced, boolean started,
                            JsonKeeper keeper, String linger) {
    }

    /** {@code queue keeper start|ensure|restart --json}: what was done ({@code action}) and the state after. */
    public record Action(int schemaVersion, boolean ok, String action, JsonKeeper keeper) {

        public static Action of(String action, KeeperState state) {
            return new Action(Json.SCHEMA_VERSION, true, action, JsonKeeper.of(state));
        }
    }

    /** {@code queue keeper stop --json}: {@code stopped} is false when nothing was running. */
    public record Stopped(int schemaVersion, boolean ok, boolean stopped) {
    }

    /** {@code queue keeper logs --json}: the last lines and where they come from. */
    public record Logs(int schemaVersion, boolean ok, String kind, String source, List<String> lines) {
    }
}
