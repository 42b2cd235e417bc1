package dev.nvidb.output;

import dev.nvidb.config.BasicConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
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

        static JsonFile of(NvidbHome home, Path path) {
            return new JsonFile(home.display(path), Files.exists(path));
        }
    }

    /** {@code nvidb info} of the loaded {@code config}, for nvidb {@code version}. */
    public static JsonInfo of(NvidbConfig config, String version) {
        NvidbHome home = config.home();
        BasicConfig basic = config.basic();
        return new JsonInfo(Json.SCHEMA_VERSION, true, version, home.display(home.dir()),
                JsonFile.of(home, home.configYml()), JsonFile.of(home, home.queueYml()), JsonFile.of(home, basic.sshConfig()),
                JsonFile.of(home, basic.knownHosts()), basic.hostKeyPolicy().key(), basic.connectTimeout(),
                basic.authTimeout(), basic.commandTimeout(), basic.remote(), names(config.monitorServers()),
                names(config.queueServers()), config.findRemote().map(RemoteConfig::host).orElse(null),
                config.warnings());
    }

    private static List<String> names(List<ServerConfig> servers) {
        return servers.stream().map(ServerConfig::name).toList();
    }

    /** {@code nvidb info} in text: files, SSH settings, servers. */
    public String text() {
        String nl = System.lineSeparator();
        return "nvidb " + version + nl
                + "home          " + home + nl
                + "config        " + describe(configFile) + nl
                + "queue config  " + describe(queueFile) + nl
                + "ssh config    " + describe(sshConfig) + nl
                + "known hosts   " + describe(knownHosts) + "  (policy " + hostKeyPolicy + ")" + nl
                + "timeouts      connect " + connectTimeoutS + " s, auth " + authTimeoutS + " s, command "
                + commandTimeoutS + " s" + nl
                + "monitor       " + servers(monitorServers) + (remoteByDefault ? "  (remote by default)" : "") + nl
                + "queue         " + servers(queueServers) + nl
                + (forwardTo == null ? "" : "remote        queue.yml names " + forwardTo + ", but forwarding is not"
                + " built yet: queue commands refuse to run unless given --local" + nl);
    }

    private static String servers(List<String> names) {
        return names.isEmpty() ? "this machine only (no servers configured)"
                : names.size() + (names.size() == 1 ? " server: " : " servers: ") + String.join(", ", names);
    }

    private static String describe(JsonFile file) {
        return file.path() + (file.exists() ? "" : "  (missing)");
    }
}
