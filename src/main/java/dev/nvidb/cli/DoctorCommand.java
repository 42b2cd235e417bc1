package dev.nvidb.cli;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.BasicConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.doctor.Doctor;
import dev.nvidb.doctor.NodeReport;
import dev.nvidb.doctor.Report;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.node.LocalHost;
import dev.nvidb.output.DoctorText;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonDoctor;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nvidb doctor}: checks every configured node and the queue database, read-only, and
 * exits 1 when something needs attention, with a hint per problem.
 */
@Command(name = "doctor", description = {"Check every node and the queue database, changing nothing.",
        "Nodes: SSH, host key, auth, python3, NVML, driver, clock, disk, /proc. Database: WAL, filesystem, schema,"
                + " lease, keeper. Exit 1 when something needs attention, with a hint per problem."},
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb doctor                      every node and the database",
                "  nvidb doctor --json               the same as one JSON document (docs/json.md)",
                "  nvidb doctor --db-path /srv/q.db  check another queue database"})
final class DoctorCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    JsonOption output;

    @Option(names = "--db-path", paramLabel = "FILE", description = "The queue database to check (default $NVIDB_HOME/queue.db).")
    String dbPath;

    DoctorCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Report report = examine(context, dbPath);
        if (output.json) {
            context.out().println(Json.write(JsonDoctor.of(report)));
        } else {
            context.out().print(DoctorText.render(report, Terminal.style(context, false)));
        }
        return ExitCodes.okOr(!report.needsAttention(), ExitCodes.Outcome.FAILED);
    }

    /** The doctor's examination: every node and the queue database ({@code dbPath}, or null for the default). */
    static Report examine(Context context, String dbPath) {
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
            KeeperState keeper = QueueKeeperCommand.keeper(context).status().orElse(null);
            return Doctor.report(nodes, DatabaseDiagnosis.of(database, DatabaseDiagnosis.readMountinfo(), now),
                    keeper, config.findRemote().map(RemoteConfig::host).orElse(null), now);
        }
    }
}
