package dev.nvidb.tui.monitor;

import java.util.Optional;

/** The three signals the process pane offers, each on its own key. */
public enum ProcessSignal {
    INT('i', "SIGINT"),
    TERM('T', "SIGTERM"),
    KILL('K', "SIGKILL");

    private final char key;
    private final String label;

    ProcessSignal(char key, String label) {
        this.key = key;
        this.label = label;
    }

    public char key() {
        return key;
    }

    /** "SIGTERM". */
    public String label() {
        return label;
    }

    /** The name {@code kill -s} takes: "TERM". */
    public String killName() {
        return name();
    }

    /** The signal bound to {@code c}, if any. */
    public static Optional<ProcessSignal> forKey(int c) {
        for (ProcessSignal signal : values()) {
            if (signal.key == c) {
                return Optional.of(signal);
            }
        }
        return Optional.empty();
    }
}
