package dev.nvidb.app;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.BasicConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.doctor.Doctor;
import dev.nvidb.doctor.NodeReport;
import dev.nvidb.doctor.Report;
import dev.nvidb.keeper.Keeper;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.node.LocalHost;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The doctor's examination as {@code nvidb doctor} and MCP's {@code doctor} tool run it: every
 * node (strict host keys, agents that keep nothing on the node) and the queue database, read-only.
 */
public final class Checkup {

    private Checkup() {
    }

    /** Every node and the queue database ({@code dbPath}, or null for the default). */
    public static Report examine(Wiring.Front context, String dbPath) {
        try (Wiring wiring = new Wiring(context)) {
            wiring.withStrictHostKeys();
            NvidbConfig config = wiring.config();
            BasicConfig basic = config.basic();
            Duration ssh = Duration.ofSeconds(basic.connectTimeout() + basic.authTimeout());
            // Doctor changes nothing, on a node either: its agents keep no compiled code there.
            Doctor doctor = new Doctor(wiring.sshPool(), AgentScript.bundled().withoutKeeping(), wiring.nodeTimeout(), ssh);
            List<NodeReport> nodes = doctor.examine(Doctor.subjects(config, wiring.nodes(), Wiring::target,
                    LocalHost.shortName()));
            Path database = dbPath == null ? config.home().queueDb() : wiring.home().expand(dbPath);
            Instant now = Instant.now();
            KeeperState keeper = new Keeper(wiring.home(), context.environment()).status().orElse(null);
            return Doctor.report(nodes, DatabaseDiagnosis.of(database, DatabaseDiagnosis.readMountinfo(), now),
                    keeper, config.findRemote().map(RemoteConfig::host).orElse(null), now);
        }
    }
}
