package dev.nvidb.ssh;

/** Which ways of authenticating a node's configuration allows. */
public enum SshAuth {
    /** Keys from ssh-agent and identity files, as plain {@code ssh} would try them. */
    AUTO,
    /** Identity files only. */
    KEY,
    /** A password from the configuration, or asked at the terminal. */
    PASSWORD,
    /** Keys held by ssh-agent only. */
    AGENT;

    boolean usesKeyFiles() {
        return this == AUTO || this == KEY;
    }

    boolean usesAgent() {
        return this == AUTO || this == AGENT;
    }

    boolean usesPassword() {
        return this == PASSWORD;
    }
}
