package dev.nvidb.app;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.BasicConfig;
import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.Missing;
import dev.nvidb.error.UsageException;
import dev.nvidb.monitor.Prober;
import dev.nvidb.node.LocalHost;
import dev.nvidb.daemon.DaemonLink;
import dev.nvidb.queue.AgentHeadStart;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Refresh;
import dev.nvidb.queue.Ticking;
import dev.nvidb.remote.ForwardedLine;
import java.nio.file.Files;
import java.io.PrintWriter;
import java.nio.file.Path;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.NodeShell;
import dev.nvidb.node.SshShell;
import dev.nvidb.model.HostKeyPolicy;
import dev.nvidb.ssh.PassphrasePrompt;
import dev.nvidb.ssh.SshAuth;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshSettings;
import dev.nvidb.ssh.SshTarget;
import java.io.Console;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Map;

/**
 * Builds, once per process and only when first needed, the parts a command uses: the loaded
 * configuration, the SSH connection pool, the node directory and the prober. Closing it
 * closes every SSH connection.
 */
public final class Wiring implements AutoCloseable {

    /**
     * What the wiring needs of the front end that starts it (cli's {@code Context} is one): the
     * environment, where warnings go, and whether a person can be asked.
     */
    public interface Front {
        Map<String, String> environment();

        PrintWriter err();

        boolean terminal();
    }

    /**
     * Which queue a command asked for (cli's {@code QueueOptions} are one): {@code --db-path},
     * {@code --local}, {@code --tick}, {@code --no-tick}, and the command's name for a tick lease.
     */
    public interface QueueChoice {
        String dbPath();

        boolean local();

        boolean tick();

        boolean noTick();

        /** The command's qualified name, or null when unknown. */
        String commandName();
    }

    /** Set on the thread of {@code cli.Main}: its command is the process's last, which exits after it. */
    private static final ThreadLocal<Boolean> LAST_IN_PROCESS = ThreadLocal.withInitial(() -> false);

    private final Front context;
    private NvidbConfig config;
    private SshPool pool;
    private Queue queue;
    private boolean prompts = true;
    private boolean strictHostKeys;
    /** The configuration's warnings are still to be printed (it was loaded by a head start). */
    private boolean warningsOwed;
    /** A short command's only wiring: see {@link #lastUse}. */
    private boolean lastUse;
    /** Agents begun before the command opened its queue, until it takes them. */
    private AgentHeadStart agents;

    public Wiring(Front context) {
        this.context = context;
    }

    public NvidbHome home() {
        return NvidbHome.fromEnvironment(context.environment(), System.getProperty("user.home"));
    }

    public NvidbConfig config() {
        if (config == null) {
            config = new ConfigLoader(home(), context.environment()).load();
            config.warnings().forEach(warning -> context.err().println("nvidb: warning: " + warning));
        }
        return config;
    }

    /**
     * Loads the configuration without printing its warnings (see {@link #sayConfigWarnings}) and
     * starts the agents of the default queue's nodes; false when there are none to start (the
     * queue commands go to another machine, or a daemon ticks). For {@link HeadStart}'s thread.
     */
    boolean beginAgents() {
        agents = AgentHeadStart.begin(home().queueDb(), new DaemonLink(home().queueDb()), () -> {
            config = new ConfigLoader(home(), context.environment()).load();
            warningsOwed = true;
            if (config.findRemote().isPresent()) {
                return null;
            }
            if (config.hasQueueServers()) {
                sshPool().prepare();   // while the database's node rows are read
            }
            return config;
        }, this::nodes, LocalHost.shortName(), java.time.Clock.systemUTC()).orElse(null);
        return agents != null;
    }

    /** Prints the warnings of a configuration {@link #beginAgents} loaded. */
    void sayConfigWarnings() {
        if (warningsOwed) {
            warningsOwed = false;
            config.warnings().forEach(warning -> context.err().println("nvidb: warning: " + warning));
        }
    }

    /** The agents begun ahead for this command's queue, handed over once (see {@link Ticking#keepAgents(Optional)}). */
    public Optional<AgentHeadStart> takeAgents() {
        Optional<AgentHeadStart> taken = Optional.ofNullable(agents);
        agents = null;
        return taken;
    }

    /** Uses {@code loaded} (read already, without printing) as this command's configuration, printing its warnings. */
    public void adopt(NvidbConfig loaded) {
        config = loaded;
        config.warnings().forEach(warning -> context.err().println("nvidb: warning: " + warning));
    }

    /**
     * The nodes, the local one running its agent with this command's {@code HOME}: the job root
     * ({@code ~/.nvidb/jobs}) is the one of the user the command runs for, also when the process
     * is a daemon running a handed-off line, or a test running commands in-process.
     */
    public NodeDirectory nodes() {
        return new NodeDirectory(this::remoteShell, Map.of("HOME", home().userHome().toString()));
    }

    /** The nodes the monitor watches: this machine alone, or {@code withServers} config.yml's servers too. */
    public java.util.List<dev.nvidb.node.Node> monitorNodes(boolean withServers) {
        return withServers ? nodes().nodes(config().basic().includeLocal(), null, config().monitorServers())
                : java.util.List.of(nodes().local(null));
    }

    public Prober prober() {
        return new Prober(AgentScript.bundled(), nodeTimeout(), config().queue().jobRoot()).withClaimsDirs(claimsDirs());
    }

    /** The monitor's servers that name a {@code claims_dir}, by name (docs/sharing.md). */
    Map<String, String> claimsDirs() {
        Map<String, String> claims = new java.util.HashMap<>();
        config().monitorServers().stream().filter(server -> server.claimsDir() != null)
                .forEach(server -> claims.put(server.name(), server.claimsDir()));
        return claims;
    }

    /** How long one node may take to answer one command: connect, authenticate, run. */
    public Duration nodeTimeout() {
        BasicConfig basic = config().basic();
        return Duration.ofSeconds(basic.connectTimeout() + basic.authTimeout() + basic.commandTimeout());
    }

    /**
     * Never asks for a key's passphrase, even on a terminal: a full-screen view owns the terminal,
     * so a node whose key needs one fails with a message instead (ssh-agent holds such keys).
     * Call before the first SSH use.
     */
    public void withoutPrompts() {
        prompts = false;
    }

    /**
     * Refuses every host key not in known_hosts, whatever {@code host_key_policy} says, so this
     * command never records one ({@code nvidb doctor} changes nothing). Call before the first SSH use.
     */
    public void withStrictHostKeys() {
        strictHostKeys = true;
    }

    /** The SSH layer's settings: timeouts, host-key policy and files from basic:, prompts on a terminal. */
    public SshSettings sshSettings() {
        BasicConfig basic = config().basic();
        PassphrasePrompt prompt = context.terminal() && prompts ? Wiring::askConsole : PassphrasePrompt.none();
        HostKeyPolicy policy = basic.hostKeyPolicy() == HostKeyPolicy.ACCEPT_NEW && !strictHostKeys
                ? HostKeyPolicy.ACCEPT_NEW : HostKeyPolicy.STRICT;
        return new SshSettings(Duration.ofSeconds(basic.connectTimeout()), Duration.ofSeconds(basic.authTimeout()),
                Duration.ofSeconds(basic.commandTimeout()), policy, basic.sshConfig(), basic.sshSystemConfig(), basic.knownHosts(),
                home().userHome(), context.environment(), prompt);
    }

    /** What the SSH layer needs to know about a configured server. */
    public static SshTarget target(ServerConfig server) {
        return new SshTarget(server.name(), server.hostname(), server.port(), server.username(),
                SshAuth.valueOf(server.auth().name()), server.identityfile(), server.password(), server.proxyjump());
    }

    private static Optional<char[]> askConsole(String prompt) {
        Console console = System.console();
        return console == null ? Optional.empty() : Optional.ofNullable(console.readPassword("%s", prompt));
    }

    /** The process's SSH connections: one per node, opened on first use. */
    public SshPool sshPool() {
        if (pool == null) {
            pool = new SshPool(sshSettings());
        }
        return pool;
    }

    private NodeShell remoteShell(ServerConfig server) {
        return new SshShell(sshPool(), target(server));
    }

    /**
     * Opens the queue this command works on: $NVIDB_HOME/queue.db or {@code --db-path}, with
     * the queue's nodes from queue.yml (or config.yml).
     */
    public Queue queue(QueueChoice options) {
        return queue(options, null);
    }

    /**
     * The queue for a command that names what must already be in it (a job, an alert): where
     * there is no database yet, nothing it names exists, so it fails with {@code missing} and
     * creates none (a wrong id changes nothing, not even a fresh home).
     */
    public Queue existingQueue(QueueChoice options, Supplier<UsageException> missing) {
        return queue(options, missing);
    }

    /**
     * Job-id existence: the queue holding jobs {@code ids}, each found before anything else (a
     * usage error naming the first missing one, {@link Queue#requireJobs}); with no database yet,
     * none is created for them.
     */
    public Queue queueHolding(QueueChoice options, java.util.List<Long> ids) {
        Queue opened = ids.isEmpty() ? queue(options) : existingQueue(options, () -> Missing.job(ids.get(0)));
        opened.requireJobs(ids);
        return opened;
    }

    private Queue queue(QueueChoice options, Supplier<UsageException> missingWithoutDatabase) {
        if (queue != null) {
            return queue;
        }
        NvidbConfig loaded = config();
        if (loaded.findRemote().isPresent() && !options.local() && !ForwardedLine.forwardedHere(context.environment())) {
            // Cli forwards every queue command line before it gets here; this one was not.
            throw new UsageException("queue.yml forwards queue commands to " + loaded.remote().host()
                    + ", and this command line was not forwarded", "pass --local to use this machine's queue");
        }
        if (options.tick() && options.noTick()) {
            throw new UsageException("give --tick or --no-tick, not both");
        }
        Path file = databaseFile(options);
        if (missingWithoutDatabase != null && !Files.exists(file)) {
            throw missingWithoutDatabase.get();
        }
        String command = options.commandName() == null ? "nvidb" : options.commandName();
        queue = Queue.open(file, loaded, this::nodes, LocalHost.shortName(), nodeTimeout(),
                Duration.ofSeconds(loaded.basic().connectTimeout() + loaded.basic().commandTimeout()), command,
                line -> context.err().println("nvidb: " + line), new DaemonLink(file));
        return queue;
    }

    /** The queue database this command works on: {@code --db-path}, else $NVIDB_HOME/queue.db. */
    public Path databaseFile(QueueChoice options) {
        return options.dbPath() == null ? config().home().queueDb() : home().expand(options.dbPath());
    }

    /**
     * Brings the queue up to date before a command reads it: a tick, unless {@code --no-tick};
     * {@code --tick} forces one even if another ran moments ago.
     */
    public void refresh(Queue service, QueueChoice options, boolean byDefault) {
        service.refreshed(Refresh.asked(options.tick(), options.noTick(), byDefault));
    }

    /**
     * Marks the calling thread's command as the last of this process (only {@code cli.Main} does:
     * not a daemon's handed lines, nor tests running commands in-process).
     */
    public static void lastInProcess() {
        LAST_IN_PROCESS.set(true);
    }

    /**
     * Says this is a short command's only wiring: when the command is also the last of its
     * process ({@link #lastInProcess}), its resident agents are not stopped one by one after the
     * answer is out; closing the SSH pool (which must happen: a JVM whose I/O threads still wait
     * in the kernel takes 0.3 s longer to exit) ends their sessions, and each agent ends at the
     * end of its input, as after any lost connection. Returns this wiring.
     */
    public Wiring lastUse() {
        lastUse = true;
        return this;
    }

    /** {@code scope}, or one whose close leaves the agents to end with the process (see {@link #lastUse}). */
    public Ticking.AgentScope lasting(Ticking.AgentScope scope) {
        return ending() ? () -> { } : scope;
    }

    private boolean ending() {
        return lastUse && LAST_IN_PROCESS.get();
    }

    @Override
    public void close() {
        if (agents != null && !ending()) {
            agents.close();
        }
        if (queue != null) {
            queue.close();
        }
        if (pool != null) {
            pool.close();
        }
    }
}
