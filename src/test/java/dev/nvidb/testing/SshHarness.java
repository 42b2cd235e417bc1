package dev.nvidb.testing;

import dev.nvidb.model.HostKeyPolicy;
import dev.nvidb.ssh.PassphrasePrompt;
import dev.nvidb.ssh.SshSettings;
import dev.nvidb.ssh.SshTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

/**
 * Real SSH servers for tests, all in this JVM: each {@link TestHost} listens on its own
 * loopback address (127.0.0.2, 127.0.0.3, ...) with its own host key, HOME and fake-GPU
 * state, and runs commands as real processes. The harness also plays the user's side: a
 * client home with {@code .ssh/config} (one {@code Host} alias per host), {@code known_hosts}
 * (every host's key) and {@code id_ed25519}, and {@link #settings()} ready for an SshPool.
 *
 * <pre>{@code
 * try (SshHarness harness = new SshHarness()) {
 *     TestHost gpuA = harness.addHost("gpu-a");
 *     try (SshPool pool = new SshPool(harness.settings())) {
 *         pool.exec(SshTarget.of("gpu-a"), "echo hi");
 *     }
 * }
 * }</pre>
 */
public final class SshHarness implements AutoCloseable {

    /** System property naming the fake NVML build folder ({@code lib/}, {@code lib-old/}, {@code bin/}). */
    public static final String FAKE_NVML_PROPERTY = "nvidb.fake.nvml.dir";

    private final Path root;
    private final Path clientHome;
    private final ClientKeyring keyring;
    private final Path fakeNvml;
    private final Map<String, TestHost> hosts = new LinkedHashMap<>();
    private final Map<String, HungHost> hungHosts = new LinkedHashMap<>();
    private int nextAddress = 2;

    public SshHarness() {
        try {
            root = Files.createTempDirectory("nvidb-ssh-harness");
            clientHome = root.resolve("client-home");
            Files.createDirectories(clientHome.resolve(".ssh"));
            Files.setPosixFilePermissions(clientHome.resolve(".ssh"), PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        keyring = new ClientKeyring(clientHome.resolve(".ssh"), clientHome.resolve("keys"));
        fakeNvml = Path.of(System.getProperty(FAKE_NVML_PROPERTY, "target/fake-nvml")).toAbsolutePath();
        keyring.file(ClientKey.ED25519);
        writeSshConfig();
    }

    /** Starts a host with default options. */
    public TestHost addHost(String name) {
        return addHost(name, HostOptions.defaults());
    }

    /** Starts a host, adds it to ssh config and its keys to known_hosts. */
    public synchronized TestHost addHost(String name, HostOptions options) {
        requireNewName(name);
        TestHost host = new TestHost(name, nextAddress(), root.resolve("hosts").resolve(name), options, keyring, fakeNvml);
        hosts.put(name, host);
        for (PublicKey key : host.hostKeys()) {
            appendKnownHost(host.address(), host.port(), key);
        }
        writeSshConfig();
        return host;
    }

    /** A host that accepts TCP connections and never answers; listed in ssh config (no known key). */
    public synchronized HungHost hungHost(String name) {
        requireNewName(name);
        HungHost hung = new HungHost(name, nextAddress());
        hungHosts.put(name, hung);
        writeSshConfig();
        return hung;
    }

    /** A host added earlier. */
    public synchronized TestHost host(String name) {
        TestHost host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException("no test host " + name);
        }
        return host;
    }

    /** A target naming the host's ssh config alias (everything else from the config). */
    public SshTarget target(String name) {
        return SshTarget.of(name);
    }

    /** The client side's home: {@code .ssh/config}, {@code .ssh/known_hosts}, {@code .ssh/id_ed25519}. */
    public Path clientHome() {
        return clientHome;
    }

    public Path sshConfig() {
        return clientHome.resolve(".ssh/config");
    }

    public Path knownHosts() {
        return clientHome.resolve(".ssh/known_hosts");
    }

    /** The default client key, {@code ~/.ssh/id_ed25519} of the client home. */
    public Path clientKey() {
        return keyring.file(ClientKey.ED25519);
    }

    /** Another client key (generated on first use); every host accepts all but {@link ClientKey#UNAUTHORIZED}. */
    public Path clientKey(ClientKey key) {
        return keyring.file(key);
    }

    public Path fakeNvmlDir() {
        return fakeNvml;
    }

    /** Settings for an SshPool against these hosts: strict host keys, short timeouts, no agent, no terminal. */
    public SshSettings settings() {
        return new SshSettings(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(30),
                HostKeyPolicy.STRICT, sshConfig(), clientHome.resolve("no-system-ssh-config"), knownHosts(), clientHome, Map.of(), PassphrasePrompt.none());
    }

    /**
     * Lays out {@code home/.ssh/{config,known_hosts,id_ed25519}} (modes 0700/0600) for a CLI run
     * with {@code HOME=home}; call it after adding the hosts.
     */
    public synchronized void writeClientHome(Path home) {
        Path ssh = home.resolve(".ssh");
        try {
            Files.createDirectories(ssh);
            Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
            copyPrivate(clientKey(), ssh.resolve("id_ed25519"));
            copyPrivate(Path.of(clientKey() + ".pub"), ssh.resolve("id_ed25519.pub"));
            copyPrivate(knownHosts(), ssh.resolve("known_hosts"));
            writePrivate(ssh.resolve("config"), configText(ssh.resolve("id_ed25519")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        hosts.values().forEach(TestHost::close);
        hungHosts.values().forEach(HungHost::close);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a leftover temp folder is not worth failing a test over
        }
    }

    private String nextAddress() {
        if (nextAddress > 254) {
            throw new IllegalStateException("out of loopback addresses");
        }
        return "127.0.0." + nextAddress++;
    }

    private void requireNewName(String name) {
        if (hosts.containsKey(name) || hungHosts.containsKey(name)) {
            throw new IllegalArgumentException("test host " + name + " exists already");
        }
    }

    private void appendKnownHost(String address, int port, PublicKey key) {
        String line = "[" + address + "]:" + port + " " + PublicKeyEntry.toString(key) + "\n";
        try {
            Files.writeString(knownHosts(), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeSshConfig() {
        try {
            writePrivate(sshConfig(), configText(clientKey()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String configText(Path identity) {
        List<String> lines = new ArrayList<>();
        lines.add("# written by SshHarness");
        hosts.values().forEach(h -> lines.addAll(hostBlock(h.name(), h.address(), h.port(), h.username(), identity)));
        hungHosts.values().forEach(h -> lines.addAll(
                hostBlock(h.name(), h.address(), h.port(), System.getProperty("user.name"), identity)));
        return String.join("\n", lines) + "\n";
    }

    private static List<String> hostBlock(String name, String address, int port, String user, Path identity) {
        return List.of("", "Host " + name, "  HostName " + address, "  Port " + port, "  User " + user,
                "  IdentityFile " + identity, "  IdentitiesOnly yes");
    }

    private static void copyPrivate(Path from, Path to) throws IOException {
        writePrivate(to, Files.readString(from));
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
}
