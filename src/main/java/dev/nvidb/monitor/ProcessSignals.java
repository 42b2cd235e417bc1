package dev.nvidb.monitor;

import dev.nvidb.agent.ShellQuote;
import dev.nvidb.error.NvidbException;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.Set;

/**
 * Sends a signal to a process the monitor shows, on the node that owns it, through that node's
 * shell ({@code kill -s TERM <pid>}). A pid is only a name for a moment: the node first checks
 * that the process still exists and, when the probe knew its name, that the pid still belongs to
 * a process of that name, so a pid reused since the probe is never signalled.
 */
public final class ProcessSignals {

    /** The signals the monitor offers, as {@code kill -s} names them. */
    public static final Set<String> SIGNALS = Set.of("INT", "TERM", "KILL");

    /** What happened: sent, or the node's reason in one line. */
    public record Outcome(boolean sent, String message) {
    }

    private final Duration timeout;

    public ProcessSignals(Duration timeout) {
        this.timeout = timeout;
    }

    /** Sends {@code signal} to {@code pid} on {@code node}; blocks up to the timeout. Never throws. */
    public Outcome send(Node node, long pid, String name, String signal) {
        if (!SIGNALS.contains(signal) || pid <= 1) {
            return new Outcome(false, "refused: SIG" + signal + " to pid " + pid);
        }
        String what = "SIG" + signal + " to " + pid + (name == null ? "" : " (" + name + ")") + " on " + node.name();
        try {
            CommandResult result = node.shell().run(command(pid, name, signal), new byte[0], timeout);
            if (result.exitStatus() != null && result.exitStatus() == 0) {
                return new Outcome(true, "sent " + what);
            }
            String why = lastLine(result.stderrText());
            return new Outcome(false, what + " failed: " + (why.isEmpty() ? "exit status " + result.exitStatus() : why));
        } catch (NvidbException e) {
            return new Outcome(false, what + " failed: " + e.getMessage());
        }
    }

    /** The node's shell line: check the process, then kill; kill's own message on failure. */
    static String command(long pid, String name, String signal) {
        String check = name == null || name.isEmpty() ? ""
                : "c=$(cat /proc/" + pid + "/comm 2>/dev/null); if [ -n \"$c\" ] && [ \"$c\" != "
                        + ShellQuote.quote(name) + " ]; then echo \"pid " + pid + " now belongs to $c, not to \""
                        + ShellQuote.quote(name) + "\"; not signalled\" >&2; exit 3; fi; ";
        return check + "kill -s " + signal + " " + pid;
    }

    private static String lastLine(String text) {
        String stripped = text.strip();
        int newline = stripped.lastIndexOf('\n');
        return newline < 0 ? stripped : stripped.substring(newline + 1).strip();
    }
}
