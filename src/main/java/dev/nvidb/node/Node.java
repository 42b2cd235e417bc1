package dev.nvidb.node;

/**
 * A node the monitor or the queue talks to: its display name and how to run commands there.
 *
 * @param name  the configured name (nickname, else hostname), or the local machine's name
 * @param local true for this machine, reached without SSH
 * @param shell how commands reach it
 */
public record Node(String name, boolean local, NodeShell shell) {

    public String address() {
        return shell.address();
    }
}
