package dev.nvidb.node;

import dev.nvidb.config.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns configured servers into {@link Node}s: the local machine (no SSH) first when asked
 * for, then every server in configuration order, each with its shell.
 */
public final class NodeDirectory {

    private final Function<ServerConfig, NodeShell> remoteShells;
    private final Map<String, String> localEnvironment;

    /**
     * @param remoteShells     opens the shell for a server (SSH; shared connection pool)
     * @param localEnvironment extra environment for the local node's commands
     */
    public NodeDirectory(Function<ServerConfig, NodeShell> remoteShells, Map<String, String> localEnvironment) {
        this.remoteShells = remoteShells;
        this.localEnvironment = Map.copyOf(localEnvironment);
    }

    /** This machine as a node, named {@code name} (null: its short host name). */
    public Node local(String name) {
        String nodeName = name == null ? LocalHost.shortName() : name;
        return new Node(nodeName, true, new LocalShell(nodeName, localEnvironment));
    }

    /** The nodes for {@code servers}, preceded by the local node when {@code includeLocal}. */
    public List<Node> nodes(boolean includeLocal, String localName, List<ServerConfig> servers) {
        List<Node> nodes = new ArrayList<>();
        if (includeLocal) {
            nodes.add(local(localName));
        }
        for (ServerConfig server : servers) {
            nodes.add(new Node(server.name(), false, remoteShells.apply(server)));
        }
        return nodes;
    }
}
