package dev.nvidb.cli;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.SshException;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.NodeShell;
import java.time.Duration;
import java.util.Map;

/**
 * Builds, once per process and only when first needed, the parts a command uses: the loaded
 * configuration, the SSH connection pool, the node directory and the prober. Closing it
 * closes every SSH connection.
 */
final class Wiring implements AutoCloseable {

    private final Context context;
    private NvidbConfig config;

    Wiring(Context context) {
        this.context = context;
    }

    NvidbHome home() {
        return NvidbHome.fromEnvironment(context.environment(), System.getProperty("user.home"));
    }

    NvidbConfig config() {
        if (config == null) {
            config = new ConfigLoader(home(), context.environment()).load();
            config.warnings().forEach(warning -> context.err().println("nvidb: warning: " + warning));
        }
        return config;
    }

    NodeDirectory nodes() {
        return new NodeDirectory(this::remoteShell, Map.of());
    }

    Prober prober() {
        NvidbConfig loaded = config();
        Duration timeout = Duration.ofSeconds(loaded.basic().connectTimeout() + loaded.basic().authTimeout()
                + loaded.basic().commandTimeout());
        return new Prober(AgentScript.bundled(), timeout, loaded.queue().jobRoot());
    }

    private NodeShell remoteShell(ServerConfig server) {
        throw new SshException(server.name() + ": SSH transport not available yet");
    }

    @Override
    public void close() {
        // The SSH pool is closed here once it exists.
    }
}
