package dev.nvidb.engine;

import dev.nvidb.config.FileTrust;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.ResidentAgents;
import dev.nvidb.store.NodeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The nodes the queue schedules onto, from queue.yml (or config.yml): the servers, plus this
 * machine when {@code include_local} is set, or this machine alone when no server is
 * configured. Shells are opened lazily, so a command that only reads the database never
 * starts SSH.
 */
public final class QueueNodes {

    private final List<String> names;
    private final Map<String, ServerConfig> servers;
    private final String localName;
    private final String jobRoot;
    private final String localJobRoot;
    private final Supplier<NodeDirectory> directory;
    private List<Node> nodes;
    private final String queueName;
    private volatile Supplier<String> queueId = () -> null;
    private volatile ResidentAgents residents;
    private volatile boolean owned;

    public QueueNodes(NvidbConfig config, Supplier<NodeDirectory> directory, String defaultLocalName) {
        QueueConfig queue = config.queue();
        boolean local = queue.includeLocal() || !config.hasQueueServers();
        this.localName = local ? (queue.localNodeName() != null ? queue.localNodeName() : defaultLocalName) : null;
        this.servers = new java.util.LinkedHashMap<>();
        config.queueServers().forEach(server -> servers.put(server.name(), server));
        List<String> all = new ArrayList<>();
        if (localName != null) {
            all.add(localName);
        }
        all.addAll(servers.keySet());
        this.names = List.copyOf(all);
        this.directory = directory;
        this.queueName = defaultLocalName;
        this.jobRoot = queue.jobRoot();
        this.localJobRoot = config.localJobRoot();
        if (localName != null) {
            // Another user's job_root on this machine would decide what runs as this user.
            FileTrust.requireTrusted(config.home().expand(localJobRoot), "job_root");
        }
    }

    /** The job root on {@code node}: {@code job_root}, or for this machine {@link NvidbConfig#localJobRoot}. */
    public String jobRoot(String node) {
        return node.equals(localName) ? localJobRoot : jobRoot;
    }

    /**
     * Keeps an agent running on each node between ticks ({@code queue daemon}); null goes back
     * to one exec per request. The caller owns {@code residents} and closes it.
     */
    public void keepAgents(ResidentAgents residents) {
        keepAgents(residents, false);
    }

    /**
     * As {@link #keepAgents(ResidentAgents)}; {@code owned} when only the calling command's own
     * thread asks these agents between its ticks (a waiting command's, not a daemon's, whose
     * agents also serve the commands handed to it), so it may hold one with a request that
     * blocks ({@link QueueEngine#awaitExit}).
     */
    public void keepAgents(ResidentAgents residents, boolean owned) {
        this.residents = residents;
        this.owned = residents != null && owned;
    }

    /** The kept agents when they are the calling command's own (see {@link #keepAgents(ResidentAgents, boolean)}), else null. */
    ResidentAgents ownedAgents() {
        return owned ? residents : null;
    }

    /** Whether ticks ask resident agents (a daemon's, a ticker's, a waiting command's). */
    public boolean keepsAgents() {
        return residents != null;
    }

    /** The resident agents ticks ask, or null when every request is a one-shot exec. */
    ResidentAgents residents() {
        return residents;
    }

    /** The name of this machine as a queue node; empty when the queue has no local node. */
    public Optional<String> localName() {
        return Optional.ofNullable(localName);
    }

    /** Every node name, the local node first. */
    public List<String> names() {
        return names;
    }

    /** The partition a Slurm node submits to, or null for a plain node (and this machine). */
    public dev.nvidb.model.SlurmTarget slurm(String name) {
        ServerConfig server = servers.get(name);
        return server == null ? null : server.slurm();
    }

    /** A plain request to {@code node}'s agent: its job root, its claims directory with this queue's
     * id and name, and its partition when it is a Slurm node. */
    public dev.nvidb.agent.AgentRequest request(String node) {
        return dev.nvidb.agent.AgentRequest.probe(jobRoot(node)).withSlurm(slurm(node)).withClaims(claims(node));
    }

    /** Where {@code node} keeps GPU claims (null: the agent's default), and who this queue is there. */
    public dev.nvidb.agent.AgentRequest.Claims claims(String node) {
        ServerConfig server = servers.get(node);
        return new dev.nvidb.agent.AgentRequest.Claims(server == null ? null : server.claimsDir(), queueId(), queueName);
    }

    /** This queue's random id (docs/sharing.md), or null before the engine named it. */
    public String queueId() {
        return queueId.get();
    }

    /** Names this queue on the nodes' claims: {@code id} is asked for once, when a request first needs it. */
    void identify(Supplier<String> id) {
        this.queueId = new Supplier<>() {
            private String known;

            @Override
            public synchronized String get() {
                if (known == null) {
                    known = id.get();
                }
                return known;
            }
        };
    }

    /** The placement allowlist of a node: null for all GPUs. */
    public List<Integer> allowedGpus(String name) {
        ServerConfig server = servers.get(name);
        return server == null ? null : server.gpus();
    }

    /** The nodes with their shells (opened on first call). */
    public synchronized List<Node> nodes() {
        if (nodes == null) {
            nodes = directory.get().nodes(localName != null, localName, List.copyOf(servers.values()));
        }
        return nodes;
    }

    /**
     * The nodes a tick at {@code now} probes, going by their rows: all but those a person
     * ignored and those backing off after failures (a back-off counts for at most
     * {@code longest}; a node without a row has never failed).
     */
    public List<Node> probedAt(List<NodeRecord> records, Instant now, Duration longest) {
        Map<String, NodeRecord> byName = new java.util.HashMap<>();
        records.forEach(record -> byName.put(record.name(), record));
        return nodes().stream().filter(node -> {
            NodeRecord record = byName.get(node.name());
            return record == null || !record.ignored() && !record.backingOff(now, longest);
        }).toList();
    }

    public Optional<Node> findNode(String name) {
        return nodes().stream().filter(node -> node.name().equals(name)).findFirst();
    }

    /**
     * The node a user meant by {@code typed}: an exact name, else the only name it starts.
     * Anything else is a usage error listing the nodes; an empty or blank name (a prefix of
     * every name) is refused rather than taken to mean the only node.
     */
    public String resolve(String typed) {
        if (typed == null || typed.isBlank()) {
            throw new UsageException("a node name cannot be empty or blank", "queue nodes: " + String.join(", ", names));
        }
        if (names.contains(typed)) {
            return typed;
        }
        List<String> matches = names.stream().filter(name -> name.startsWith(typed)).toList();
        if (matches.size() == 1) {
            return matches.get(0);
        }
        String known = String.join(", ", names);
        if (matches.isEmpty()) {
            throw new UsageException("no node named '" + typed + "'", "queue nodes: " + known);
        }
        throw new UsageException("'" + typed + "' matches several nodes: " + String.join(", ", matches),
                "type more of the name");
    }
}
