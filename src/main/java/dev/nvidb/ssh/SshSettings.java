package dev.nvidb.ssh;

import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the SSH layer needs from its surroundings: timeouts, the host-key policy, where
 * the user's ssh files are (and the system-wide ssh config), the environment (for {@code SSH_AUTH_SOCK}) and how to ask for a
 * passphrase. Passing these in, rather than reading globals, keeps tests hermetic.
 */
public record SshSettings(
        Duration connectTimeout,
        Duration authTimeout,
        Duration commandTimeout,
        HostKeyPolicy hostKeyPolicy,
        Path sshConfig,
        Path systemSshConfig,
        Path knownHosts,
        Path home,
        Map<String, String> environment,
        PassphrasePrompt prompt) {

    /** Environment variable naming the ssh-agent socket. */
    public static final String AGENT_SOCKET_VARIABLE = "SSH_AUTH_SOCK";

    public SshSettings {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(authTimeout, "authTimeout");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(hostKeyPolicy, "hostKeyPolicy");
        Objects.requireNonNull(sshConfig, "sshConfig");
        Objects.requireNonNull(systemSshConfig, "systemSshConfig");
        Objects.requireNonNull(knownHosts, "knownHosts");
        Objects.requireNonNull(home, "home");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(prompt, "prompt");
    }

    /** The system-wide OpenSSH client config, read after the user's. */
    public static final Path SYSTEM_SSH_CONFIG = Path.of("/etc/ssh/ssh_config");

    /**
     * The usual settings for a user whose home is {@code home}: {@code ~/.ssh/config} then
     * {@code /etc/ssh/ssh_config}, {@code ~/.ssh/known_hosts}, strict keys.
     */
    public static SshSettings defaults(Path home, Map<String, String> environment, PassphrasePrompt prompt) {
        return new SshSettings(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(60),
                HostKeyPolicy.STRICT, home.resolve(".ssh/config"), SYSTEM_SSH_CONFIG, home.resolve(".ssh/known_hosts"),
                home, environment, prompt);
    }

    public SshSettings withSystemSshConfig(Path file) {
        return new SshSettings(connectTimeout, authTimeout, commandTimeout, hostKeyPolicy, sshConfig, file, knownHosts,
                home, environment, prompt);
    }

    public SshSettings withHostKeyPolicy(HostKeyPolicy policy) {
        return new SshSettings(connectTimeout, authTimeout, commandTimeout, policy, sshConfig, systemSshConfig, knownHosts,
                home, environment, prompt);
    }

    public SshSettings withTimeouts(Duration connect, Duration auth, Duration command) {
        return new SshSettings(connect, auth, command, hostKeyPolicy, sshConfig, systemSshConfig, knownHosts,
                home, environment, prompt);
    }

    public SshSettings withKnownHosts(Path file) {
        return new SshSettings(connectTimeout, authTimeout, commandTimeout, hostKeyPolicy, sshConfig, systemSshConfig, file,
                home, environment, prompt);
    }

    public SshSettings withEnvironment(Map<String, String> env) {
        return new SshSettings(connectTimeout, authTimeout, commandTimeout, hostKeyPolicy, sshConfig, systemSshConfig, knownHosts,
                home, env, prompt);
    }

    public SshSettings withPrompt(PassphrasePrompt newPrompt) {
        return new SshSettings(connectTimeout, authTimeout, commandTimeout, hostKeyPolicy, sshConfig, systemSshConfig, knownHosts,
                home, environment, newPrompt);
    }

    /** The ssh-agent socket named by {@code SSH_AUTH_SOCK}, if set. */
    public Optional<Path> agentSocket() {
        String value = environment.get(AGENT_SOCKET_VARIABLE);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(Path.of(value));
    }

    /** The local user name, the default remote user: {@code USER}, else the JVM's idea of it. */
    public String localUser() {
        String user = environment.get("USER");
        return user == null || user.isBlank() ? System.getProperty("user.name") : user;
    }

    /** {@code path} shortened to {@code ~/...} when it lies under the home directory, for messages. */
    String display(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path root = home.toAbsolutePath().normalize();
        return absolute.startsWith(root) && !absolute.equals(root)
                ? "~/" + root.relativize(absolute) : absolute.toString();
    }
}
