package dev.nvidb.doctor;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.error.SshException;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.ssh.HostKeyScan;
import dev.nvidb.ssh.SshPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Examines one node, step by step, stopping where a step fails: SSH answers and shows its host
 * key (read without authenticating), the key is in known_hosts, authentication, then one probe
 * through the agent. Changes nothing: an unknown key is never recorded (the pool is strict),
 * and nothing runs on a node whose key is not known.
 */
final class NodeExaminer {

    private final SshPool pool;
    private final ProbeRound round;

    NodeExaminer(SshPool pool, ProbeRound round) {
        this.pool = pool;
        this.round = round;
    }

    NodeReport examine(Doctor.Subject subject) {
        Facts facts = new Facts(subject);
        if (!subject.node().local() && !connect(subject, facts)) {
            return facts.report();
        }
        long sent = System.currentTimeMillis();
        NodeAnswer answer = round.ask(subject.node(), AgentRequest.probe(subject.jobRoot()));
        long answered = System.currentTimeMillis();
        if (!answer.answered()) {
            facts.checks.add(Check.problem("agent", answer.failure(), "'nvidb --once --remote --verbose' shows what"
                    + " the node answered"));
            return facts.report();
        }
        NodeFindings.Probe probe = new NodeFindings.Probe(answer.reply().snapshot(), answer.reply().agentAnswered(),
                sent, answered);
        facts.probed(probe);
        facts.checks.addAll(NodeFindings.judge(subject.node().name(), subject.node().local(), subject.queueNode(), probe));
        return facts.report();
    }

    /** The SSH steps; false when one failed (its check says why). */
    private boolean connect(Doctor.Subject subject, Facts facts) {
        String name = subject.node().name();
        HostKeyScan scan;
        try {
            scan = pool.scan(subject.target());
        } catch (SshException e) {
            facts.reachable = false;
            facts.checks.add(Check.problem("reachable", e.getMessage(), e.hint().orElse("check that " + name + " is up")));
            return false;
        }
        facts.checks.add(Check.ok("reachable", "sshd answered at " + address(scan)));
        facts.hostKey = scan.status().name().toLowerCase(Locale.ROOT);
        facts.fingerprint = scan.fingerprint();
        String key = scan.keyType() + " " + scan.fingerprint();
        switch (scan.status()) {
            case KNOWN -> facts.checks.add(Check.ok("host_key", key + " is in known_hosts"));
            case UNKNOWN -> {
                facts.checks.add(Check.problem("host_key", name + " presents " + key + ", which is not in known_hosts",
                        "run 'nvidb trust " + name + "' to compare the fingerprint and record it"));
                return false;
            }
            case CHANGED -> {
                facts.checks.add(Check.problem("host_key", name + " presents " + key
                        + ", which does not match the key in known_hosts", "if the host was reinstalled, remove the"
                        + " old entry (ssh-keygen -R '" + address(scan) + "') and run 'nvidb trust " + name
                        + "'; otherwise someone may be intercepting the connection"));
                return false;
            }
            default -> throw new IllegalStateException("unexpected host key status " + scan.status());
        }
        try {
            facts.auth = pool.authenticate(subject.target());
            facts.checks.add(Check.ok("auth", facts.auth));
            return true;
        } catch (SshException e) {
            facts.checks.add(Check.problem("auth", e.getMessage(), e.hint().orElse(null)));
            return false;
        }
    }

    private static String address(HostKeyScan scan) {
        return scan.port() == 22 ? scan.host() : "[" + scan.host() + "]:" + scan.port();
    }

    /** What is known so far about one node. */
    private static final class Facts {
        private final Doctor.Subject subject;
        private final List<Check> checks = new ArrayList<>();
        private boolean reachable = true;
        private String hostKey;
        private String fingerprint;
        private String auth;
        private NodeFindings.Probe probe;

        Facts(Doctor.Subject subject) {
            this.subject = subject;
        }

        void probed(NodeFindings.Probe answer) {
            probe = answer;
        }

        NodeReport report() {
            NodeSnapshot snapshot = probe == null ? null : probe.snapshot();
            NodeInfo info = snapshot == null ? NodeInfo.unknown() : snapshot.info();
            boolean remoteClock = probe != null && !subject.node().local() && info.clock() != null;
            return new NodeReport(subject.node().name(), subject.node().local() ? "local" : subject.node().address(),
                    subject.node().local(), subject.roles(), reachable, hostKey, fingerprint, auth,
                    probe == null || !probe.agentAnswered() ? null : info.python(),
                    snapshot == null ? null : snapshot.source().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                    snapshot == null ? null : snapshot.driverVersion(), snapshot == null ? null : snapshot.gpus().size(),
                    remoteClock ? NodeFindings.skew(probe) : null, remoteClock ? NodeFindings.uncertainty(probe) : null,
                    info.diskPath(), info.diskFreeMb(), info.procHidepid(), info.procHidesOthers(), checks);
        }
    }
}
