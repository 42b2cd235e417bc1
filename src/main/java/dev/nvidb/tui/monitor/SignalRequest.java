package dev.nvidb.tui.monitor;

/**
 * A signal the user confirmed for one process.
 *
 * @param signal what to send
 * @param node   the node that owns the process
 * @param pid    the process id there
 * @param name   the process name the probe showed (null when unknown): the node refuses to signal
 *               a pid that now belongs to a process of another name
 */
public record SignalRequest(ProcessSignal signal, String node, long pid, String name) {

    /** "SIGTERM to 1234 (python) on gpu-a", for messages. */
    public String describe() {
        return signal.label() + " to " + pid + (name == null ? "" : " (" + name + ")") + " on " + node;
    }
}
