package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.PublicKey;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.OpenFuture;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.core.CoreModuleProperties;

/**
 * The process's SSH client: one MINA {@code SshClient}, built on first use, and one connection
 * per node, reused by every command and long-lived process on that node. Thread-safe: callers
 * contact nodes in parallel, and a node that hangs delays only its own callers.
 */
public final class SshPool implements AutoCloseable {

    private final SshSettings settings;
    private final TargetResolver resolver;
    private final KnownHostsFile knownHosts;
    private final KeyFileCache keys;
    private final Map<SshTarget, NodeSlot> slots = new ConcurrentHashMap<>();
    private final Object clientLock = new Object();
    private volatile SshClient client;
    private volatile NodeConnector connector;
    private volatile boolean closed;

    public SshPool(SshSettings settings) {
        this.settings = settings;
        this.resolver = new TargetResolver(settings);
        this.knownHosts = new KnownHostsFile(settings.knownHosts());
        this.keys = new KeyFileCache(settings);
    }

    public SshSettings settings() {
        return settings;
    }

    /** Where {@code target} really is, after ssh config and defaults (no network). */
    public ResolvedTarget resolve(SshTarget target) {
        return resolver.resolve(target);
    }

    /** Runs {@code command} with the settings' command timeout and no input. */
    public ExecResult exec(SshTarget target, String command) {
        return exec(target, command, null, null);
    }

    /**
     * Runs {@code command} on the node, feeding it {@code stdin} (null: none, end-of-file at once),
     * and waits up to {@code timeout} (null: the settings' command timeout) for it to finish.
     */
    public ExecResult exec(SshTarget target, String command, byte[] stdin, Duration timeout) {
        Duration limit = timeout == null ? settings.commandTimeout() : timeout;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        byte[] input = stdin == null ? new byte[0] : stdin;
        Opened opened = openChannel(target, command, channel -> {
            channel.setIn(new ByteArrayInputStream(input));
            channel.setOut(out);
            channel.setErr(err);
        });
        ChannelExec channel = opened.channel();
        // The command's own time starts once its channel is open; connecting has its own timeouts.
        Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), limit.toMillis());
        String label = opened.connection().target().label();
        if (!events.contains(ClientChannelEvent.CLOSED)) {
            channel.close(true);
            throw new SshException(label + ": command did not finish within " + Failures.seconds(limit),
                    "the command was stopped; raise the timeout if it needs longer");
        }
        Integer status = channel.getExitStatus();
        String signal = channel.getExitSignal();
        if (status == null && signal == null && !opened.connection().isOpen()) {
            throw new SshException(label + ": connection lost while running the command",
                    "check that the host is still up");
        }
        return new ExecResult(status, signal, out.toByteArray(), err.toByteArray());
    }

    /** Starts a long-lived {@code command} on the node, sharing the node's connection. */
    public RemoteProcess start(SshTarget target, String command) {
        RemoteProcess.TailBuffer stderr = new RemoteProcess.TailBuffer();
        return new RemoteProcess(openChannel(target, command, channel -> channel.setErr(stderr)).channel(), stderr);
    }

    /**
     * Starts {@code command} on the host with live streams: {@code input} (null: none, end-of-file
     * at once) is copied to it as it comes, its stdout and stderr are written to {@code out} and
     * {@code err} as they arrive. With {@code pty} the command gets a pseudo-terminal of that type
     * and size. There is no time limit on the command; connecting has the usual ones.
     */
    public StreamedCommand stream(SshTarget target, String command, InputStream input, OutputStream out,
                                  OutputStream err, StreamedCommand.Pty pty) {
        Opened opened = openChannel(target, command, channel -> {
            channel.setOut(new StreamedCommand.Flushing(out));
            channel.setErr(new StreamedCommand.Flushing(err));
            if (pty != null) {
                channel.setUsePty(true);
                channel.setPtyType(pty.type());
                channel.setPtyColumns(pty.columns());
                channel.setPtyLines(pty.rows());
            }
        });
        return new StreamedCommand(opened.channel(), opened.connection().target().label(), input);
    }

    /** Reads the host key the node presents, without authenticating (jump hosts are verified as usual). */
    public HostKeyScan scan(SshTarget target) {
        ResolvedTarget node = resolve(target);
        HostKeyCheck check = connector().scan(node);
        PublicKey key = check.presented();
        HostKeyScan.Status status = switch (check.verdict()) {
            case KNOWN -> HostKeyScan.Status.KNOWN;
            case UNKNOWN -> HostKeyScan.Status.UNKNOWN;
            case CHANGED, REVOKED -> HostKeyScan.Status.CHANGED;
        };
        return new HostKeyScan(node.node(), node.hostname(), node.port(), KeyUtils.getKeyType(key),
                HostKeyCheck.fingerprint(key), key, status);
    }

    /**
     * Connects to the node (or reuses the open connection) and says how it accepted us:
     * {@code publickey ~/.ssh/id_ed25519}, {@code ssh-agent key SHA256:…} or {@code password}
     * ({@code unknown} if MINA did not report it). A failure is the usual one-line {@link SshException}.
     */
    public String authenticate(SshTarget target) {
        NodeSlot slot = slots.computeIfAbsent(target, t -> new NodeSlot());
        Connection connection = slot.acquire(() -> connector().connect(resolve(target))).connection();
        HopContext context = HopContext.of(connection.session());
        return context == null ? "unknown" : context.authLog().succeeded().orElse("unknown");
    }

    /** Records {@code key} as the node's host key in known_hosts (nothing to do if it is already there). */
    public void trust(SshTarget target, PublicKey key) {
        ResolvedTarget node = resolve(target);
        switch (knownHosts.check(node.hostname(), node.port(), key)) {
            case KNOWN -> { }
            case UNKNOWN -> knownHosts.append(node.hostname(), node.port(), key);
            case CHANGED, REVOKED -> throw new SshException("known_hosts already holds a different key for "
                    + node.label() + "; refusing to add a second one",
                    "remove the old entry first: ssh-keygen -R '" + KnownHostsFile.pattern(node.hostname(), node.port())
                            + "' -f " + knownHosts.path());
        }
    }

    /** Closes every connection and the client. */
    @Override
    public void close() {
        closed = true;
        slots.values().forEach(NodeSlot::close);
        slots.clear();
        synchronized (clientLock) {
            if (client != null) {
                client.stop();
            }
        }
    }

    private record Opened(Connection connection, ChannelExec channel) {
    }

    private Opened openChannel(SshTarget target, String command, Consumer<ChannelExec> setup) {
        NodeSlot slot = slots.computeIfAbsent(target, t -> new NodeSlot());
        for (int attempt = 0; ; attempt++) {
            NodeSlot.Lease lease = slot.acquire(() -> connector().connect(resolve(target)));
            Connection connection = lease.connection();
            try {
                ChannelExec channel = connection.session().createExecChannel(command);
                setup.accept(channel);
                OpenFuture open = channel.open();
                if (!open.await(settings.connectTimeout().toMillis())) {
                    channel.close(true);
                    slot.invalidate(connection);
                    throw Failures.timeout(HopLabel.of(connection.target(), connection.target()),
                            settings.connectTimeout(), "opening a channel");
                }
                if (open.getException() != null) {
                    throw new IOException(open.getException());
                }
                return new Opened(connection, channel);
            } catch (IOException | IllegalStateException e) {
                boolean stale = !connection.isOpen();
                slot.invalidate(connection);
                if (!(stale && !lease.fresh() && attempt == 0)) {
                    throw Failures.of(HopLabel.of(connection.target(), connection.target()), "opening a channel", e);
                }
            }
        }
    }

    /**
     * Builds the SSH client now instead of at the first connection (MINA's set-up, a tenth of a
     * second on a cold JVM), for a caller that will connect soon and has a moment to spare now.
     */
    public void prepare() {
        connector();
    }

    private NodeConnector connector() {
        NodeConnector current = connector;
        if (current != null) {
            return current;
        }
        synchronized (clientLock) {
            if (closed) {
                throw new SshException("the SSH connection pool is closed");
            }
            if (connector == null) {
                client = buildClient();
                connector = new NodeConnector(client, settings, knownHosts, keys);
            }
            return connector;
        }
    }

    private SshClient buildClient() {
        SshClient built = SshClient.setUpDefaultClient();
        built.setServerKeyVerifier(new HostKeyVerifier());
        built.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        built.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        built.setFilePasswordProvider(FilePasswordProvider.EMPTY);
        built.setAgentFactory(new AgentConnector(settings.agentSocket().orElse(null), settings));
        built.addSessionListener(new SessionEvents());
        // Small request/reply exchanges otherwise stall on Nagle + delayed ACK (~90 ms per exec on loopback).
        CoreModuleProperties.TCP_NODELAY.set(built, true);
        built.start();   // fills in MINA's default service factories, one of which is replaced here
        built.setServiceFactories(DirectUserAuthService.replacing(built.getServiceFactories()));
        return built;
    }
}
