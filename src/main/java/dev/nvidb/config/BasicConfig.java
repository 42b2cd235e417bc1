package dev.nvidb.config;

import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;

/**
 * The {@code basic:} section of {@code config.yml}: monitor defaults and SSH behaviour.
 *
 * @param remote          plain {@code nvidb} (and {@code nvidb log}) include remote servers
 * @param includeLocal    the monitor's remote mode also shows this machine
 * @param hostKeyPolicy   what to do with unknown host keys
 * @param connectTimeout  seconds to wait for the TCP connection and SSH handshake
 * @param authTimeout     seconds to wait for authentication
 * @param commandTimeout  seconds to wait for one remote command
 * @param sshConfig       OpenSSH client config read for aliases, ports, users, keys and ProxyJump
 * @param sshSystemConfig the system-wide OpenSSH client config, read after {@code sshConfig}
 * @param knownHosts      OpenSSH known_hosts file used to verify host keys
 */
public record BasicConfig(
        boolean remote,
        boolean includeLocal,
        HostKeyPolicy hostKeyPolicy,
        int connectTimeout,
        int authTimeout,
        int commandTimeout,
        Path sshConfig,
        Path sshSystemConfig,
        Path knownHosts) {

    /** The defaults for a user whose home is {@code home}. */
    public static BasicConfig defaults(NvidbHome home) {
        return new BasicConfig(false, true, HostKeyPolicy.STRICT, 5, 10, 30,
                home.expand("~/.ssh/config"), Path.of("/etc/ssh/ssh_config"), home.expand("~/.ssh/known_hosts"));
    }

    /** A copy with another host-key policy (environment overrides). */
    public BasicConfig withHostKeyPolicy(HostKeyPolicy policy) {
        return new BasicConfig(remote, includeLocal, policy, connectTimeout, authTimeout, commandTimeout,
                sshConfig, sshSystemConfig, knownHosts);
    }

    /** A copy with another connect timeout (environment overrides). */
    public BasicConfig withConnectTimeout(int seconds) {
        return new BasicConfig(remote, includeLocal, hostKeyPolicy, seconds, authTimeout, commandTimeout,
                sshConfig, sshSystemConfig, knownHosts);
    }
}
