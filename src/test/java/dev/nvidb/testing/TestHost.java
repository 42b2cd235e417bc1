package dev.nvidb.testing;

import dev.nvidb.testing.HostOptions.HostKeyType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.password.UserAuthPasswordFactory;
import org.apache.sshd.server.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.server.forward.AcceptAllForwardingFilter;

/**
 * One SSH "host" of an {@link SshHarness}: MINA's embedded server on its own loopback address
 * with its own host key, HOME and fake-GPU state file, running exec requests as real
 * processes. It can be stopped (connections are refused) and started again on the same port.
 */
public final class TestHost implements AutoCloseable {

    private final String name;
    private final String address;
    private final Path dir;
    private final HostOptions options;
    private final ClientKeyring keyring;
    private final Map<String, String> environment;
    private final AtomicInteger sessionsOpened = new AtomicInteger();
    private List<KeyPair> hostKeys;
    private SshServer server;
    private int port;

    TestHost(String name, String address, Path dir, HostOptions options, ClientKeyring keyring, Path fakeNvml) {
        this.name = name;
        this.address = address;
        this.dir = dir;
        this.options = options;
        this.keyring = keyring;
        try {
            Files.createDirectories(home());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.hostKeys = generateHostKeys();
        this.environment = processEnvironment(fakeNvml);
        start();
    }

    public String name() {
        return name;
    }

    public String address() {
        return address;
    }

    /** The port, fixed at the first start and kept across restarts. */
    public int port() {
        return port;
    }

    /** The only user name this host accepts. */
    public String username() {
        return options.username() != null ? options.username() : System.getProperty("user.name");
    }

    /** The host's HOME and the working directory of its commands. */
    public Path home() {
        return dir.resolve("home");
    }

    /** The file named by {@code NVIDB_FAKE_NVML_STATE} in this host's commands (written with {@code FakeGpuState}). */
    public Path gpuStateFile() {
        return dir.resolve("gpu-state");
    }

    /** The host's first host key. */
    public PublicKey hostKey() {
        return hostKeys.get(0).getPublic();
    }

    /** All host keys it presents. */
    public List<PublicKey> hostKeys() {
        return hostKeys.stream().map(KeyPair::getPublic).toList();
    }

    /** {@link #hostKey()} as an OpenSSH {@code .pub} file, e.g. for {@code ssh-keygen -lf}. */
    public Path hostKeyFile() {
        Path file = dir.resolve("host_key.pub");
        try {
            Files.writeString(file, PublicKeyEntry.toString(hostKey()) + " " + name + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Where this host's agents keep GPU claims (NVIDB_CLAIMS_DIR): a folder of this host's own. */
    public Path claimsDir() {
        return dir.resolve("claims");
    }

    /** The environment every command on this host sees. */
    public Map<String, String> environment() {
        return environment;
    }

    /** How many SSH sessions clients have opened to this host so far (across restarts). */
    public int sessionsOpened() {
        return sessionsOpened.get();
    }

    public synchronized boolean isRunning() {
        return server != null && server.isStarted();
    }

    /** Starts the server (again) on its address and port. */
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        server = SshServer.setUpDefaultServer();
        server.setHost(address);
        server.setPort(port);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKeys));
        server.setPublickeyAuthenticator((user, key, session) -> user.equals(username()) && keyring.isAuthorized(key));
        server.setPasswordAuthenticator(options.password() == null ? null
                : (user, password, session) -> user.equals(username()) && password.equals(options.password()));
        server.setKeyboardInteractiveAuthenticator(null);
        server.setUserAuthFactories(options.password() == null
                ? List.of(UserAuthPublicKeyFactory.INSTANCE)
                : List.of(UserAuthPublicKeyFactory.INSTANCE, UserAuthPasswordFactory.INSTANCE));
        server.setForwardingFilter(AcceptAllForwardingFilter.INSTANCE);
        server.setCommandFactory((channel, command) -> new ProcessCommand(command, environment, home()));
        CoreModuleProperties.TCP_NODELAY.set(server, true);
        server.addSessionListener(new SessionListener() {
            @Override
            public void sessionCreated(Session session) {
                sessionsOpened.incrementAndGet();
            }
        });
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start test host " + name + " on " + address + ":" + port, e);
        }
        port = server.getPort();
    }

    /**
     * Sessions that start from now on are cut off after {@code requests} authentication requests,
     * as MINA's server counts them ({@code max-auth-requests}: a {@code none} request counts).
     */
    public synchronized void limitAuthRequests(int requests) {
        CoreModuleProperties.MAX_AUTH_REQUESTS.set(server, requests);
    }

    /** Stops the server and drops its sessions; connections are refused until {@link #start()}. */
    public synchronized void stop() {
        if (server != null) {
            try {
                server.stop(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = null;
        }
    }

    /** Gives the host new host keys (not recorded in the harness's known_hosts), restarting it if it runs. */
    public synchronized void rotateHostKeys() {
        boolean running = isRunning();
        stop();
        hostKeys = generateHostKeys();
        if (running) {
            start();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private List<KeyPair> generateHostKeys() {
        List<KeyPair> keys = new ArrayList<>();
        try {
            for (HostKeyType type : options.hostKeyTypes()) {
                keys.add(type == HostKeyType.ED25519
                        ? KeyUtils.generateKeyPair("ssh-ed25519", 256)
                        : KeyUtils.generateKeyPair("ecdsa-sha2-nistp256", 256));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return List.copyOf(keys);
    }

    private Map<String, String> processEnvironment(Path fakeNvml) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", home().toString());
        env.put("USER", username());
        env.put("LOGNAME", username());
        env.put("SHELL", "/bin/sh");
        env.put("LANG", "C.UTF-8");
        Path lib = options.libDir() != null ? options.libDir() : fakeNvml.resolve("lib");
        env.put("LD_LIBRARY_PATH", lib.toString());
        env.put("NVIDB_FAKE_NVML_STATE", gpuStateFile().toString());
        env.put("NVIDB_CLAIMS_DIR", claimsDir().toString()); // each host is a machine of its own
        String path = options.python()
                ? fakeNvml.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin"
                : fakeNvml.resolve("bin") + ":" + ToolFolder.withoutPython(dir.resolve("bin"));
        env.put("PATH", path);
        return Map.copyOf(env);
    }
}
