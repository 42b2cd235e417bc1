package dev.nvidb.output;

import dev.nvidb.keeper.KeeperState;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** The keeper in text: the one line {@code queue status} and {@code queue keeper status} print. */
public final class KeeperText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private KeeperText() {
    }

    /**
     * {@code keeper up: shell supervisor 812 since …, daemon 815 since …, 2 restarts (last …, exit status 137)},
     * {@code keeper DOWN: shell, its supervisor (pid 812) is gone; start it: nvidb queue keeper start}.
     */
    public static String line(KeeperState state, ZoneId zone, TextStyle style) {
        String word = switch (state.condition()) {
            case UP -> style.good("up");
            case FAILING -> style.bad("FAILING");
            case DOWN -> style.bad("DOWN");
        };
        StringBuilder line = new StringBuilder(": ").append(state.kind().label());
        if (state.supervisorPid() != null) {
            line.append(" supervisor ").append(state.supervisorPid());
            if (state.since() != null) {
                line.append(" since ").append(time(state.since(), zone));
            }
        }
        if (state.daemonPid() != null) {
            line.append(", daemon ").append(state.daemonPid());
            if (state.daemonSince() != null) {
                line.append(" since ").append(time(state.daemonSince(), zone));
            }
        } else if (state.nextStartAt() != null) {
            line.append(", daemon starting again at ").append(time(state.nextStartAt(), zone));
        }
        if (state.restarts() != null && state.restarts() > 0) {
            line.append(", ").append(state.restarts()).append(state.restarts() == 1 ? " restart" : " restarts");
            if (state.lastRestartAt() != null) {
                line.append(" (last ").append(time(state.lastRestartAt(), zone));
                if (state.lastExit() != null) {
                    line.append(", after exit status ").append(state.lastExit());
                }
                line.append(')');
            }
        }
        if (state.detail() != null) {
            line.append(", ").append(state.detail());
        }
        if (state.condition() == KeeperState.Condition.DOWN) {
            line.append("; start it: nvidb queue keeper start");
        } else if (state.condition() == KeeperState.Condition.FAILING) {
            line.append("; see nvidb queue keeper logs");
        }
        return "keeper " + word + Printable.of(line.toString());
    }

    private static String time(Instant instant, ZoneId zone) {
        return TIME.format(instant.atZone(zone));
    }

    /** {@code queue keeper install}: the file written, the keeper it replaced, its state once started, the linger note. */
    public static String installed(dev.nvidb.keeper.Keeper.Installed done, String linger, ZoneId zone, TextStyle style) {
        String nl = System.lineSeparator();
        return "wrote " + done.file() + (done.replaced() == null ? ""
                : " (the " + done.replaced().label() + " keeper is stopped and removed)") + nl
                + (done.started() != null ? line(done.started(), zone, style) : "start it: nvidb queue keeper start") + nl
                + (linger != null ? linger + nl : "");
    }
}
