package dev.nvidb.doctor;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.node.Fanout;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.queue.DatabaseDiagnosis;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code nvidb doctor}: examines every configured node in parallel (each within its own
 * timeout) and judges the queue database and the keeper, changing nothing anywhere.
 */
public final class Doctor {

    /**
     * A node to examine.
     *
     * @param node    the node and its shell
     * @param target  how SSH reaches it; null for this machine
     * @param roles   {@code queue} and/or {@code monitor}
     * @param jobRoot where its free disk is measured
     */
    public record Subject(Node node, SshTarget target, List<String> roles, String jobRoot) {

        public Subject {
            roles = List.copyOf(roles);
        }

        boolean queueNode() {
            return roles.contains("queue");
        }
    }

    private final NodeExaminer examiner;
    private final Duration bound;

    /**
     * @param pool        the SSH connections; its host-key policy must be strict, so no key is recorded
     * @param script      the agent to ship
     * @param nodeTimeout how long one probe may take, connection included
     * @param sshTimeout  how long reaching and authenticating a node may take
     */
    public Doctor(SshPool pool, AgentScript script, Duration nodeTimeout, Duration sshTimeout) {
        this.examiner = new NodeExaminer(pool, new ProbeRound(script, nodeTimeout));
        this.bound = nodeTimeout.plus(sshTimeout).plus(sshTimeout);
    }

    /**
     * Every node nvidb is configured to use: this machine (the monitor always shows it; a queue
     * node when the queue includes it), then the queue's servers and the monitor's servers, one
     * entry per name with the roles it has.
     */
    public static List<Subject> subjects(NvidbConfig config, NodeDirectory directory,
                                         Function<ServerConfig, SshTarget> targets, String localName) {
        boolean queueLocal = config.queue().includeLocal() || !config.hasQueueServers();
        String local = queueLocal && config.queue().localNodeName() != null ? config.queue().localNodeName() : localName;
        List<Subject> subjects = new ArrayList<>();
        subjects.add(new Subject(directory.local(local), null, queueLocal ? List.of("queue", "monitor")
                : List.of("monitor"), config.localJobRoot()));
        Map<String, ServerConfig> servers = new LinkedHashMap<>();
        Map<String, List<String>> roles = new LinkedHashMap<>();
        for (ServerConfig server : config.queueServers()) {
            servers.putIfAbsent(server.name(), server);
            roles.computeIfAbsent(server.name(), name -> new ArrayList<>()).add("queue");
        }
        for (ServerConfig server : config.monitorServers()) {
            servers.putIfAbsent(server.name(), server);
            List<String> its = roles.computeIfAbsent(server.name(), name -> new ArrayList<>());
            if (!its.contains("monitor")) {
                its.add("monitor");
            }
        }
        List<Node> nodes = directory.nodes(false, null, List.copyOf(servers.values()));
        for (Node node : nodes) {
            subjects.add(new Subject(node, targets.apply(servers.get(node.name())), roles.get(node.name()),
                    config.queue().jobRoot()));
        }
        return subjects;
    }

    /** Examines every subject at once; the reports are in the order given. */
    public List<NodeReport> examine(List<Subject> subjects) {
        Map<Node, Subject> byNode = new LinkedHashMap<>();
        subjects.forEach(subject -> byNode.put(subject.node(), subject));
        return Fanout.each(List.copyOf(byNode.keySet()), node -> examiner.examine(byNode.get(node)), bound,
                (node, why) -> new NodeReport(node.name(), node.address(), node.local(), byNode.get(node).roles(), false,
                        null, null, null, null, null, null, null, null, null, null, null, null, null,
                        List.of(Check.problem("reachable", why, "check that " + node.name() + " is up"))));
    }

    /** The whole report: the nodes, the database and the keeper. */
    public static Report report(List<NodeReport> nodes, DatabaseDiagnosis database, KeeperState keeper,
                                String forwardedTo, Instant now) {
        return new Report(nodes, new DatabaseReport(database, keeper,
                DatabaseFindings.judge(database, keeper, forwardedTo, now)));
    }
}
