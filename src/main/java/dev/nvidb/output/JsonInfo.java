package dev.nvidb.output;

import java.util.List;

/** {@code nvidb info --json}: where nvidb keeps its files and what it read from them. */
public record JsonInfo(
        int schemaVersion,
        boolean ok,
        String version,
        String home,
        JsonFile configFile,
        JsonFile queueFile,
        JsonFile sshConfig,
        JsonFile knownHosts,
        String hostKeyPolicy,
        int connectTimeoutS,
        int authTimeoutS,
        int commandTimeoutS,
        boolean remoteByDefault,
        List<String> monitorServers,
        List<String> queueServers,
        String forwardTo,
        List<String> warnings) {

    /** A file and whether it exists. */
    public record JsonFile(String path, boolean exists) {
    }
}
