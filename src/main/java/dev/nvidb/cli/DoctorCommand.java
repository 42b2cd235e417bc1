package dev.nvidb.cli;

import dev.nvidb.app.Checkup;
import dev.nvidb.doctor.Report;
import dev.nvidb.output.DoctorText;
import dev.nvidb.output.JsonDoctor;
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
final class DoctorCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Option(names = "--db-path", paramLabel = "FILE", description = "The queue database to check (default $NVIDB_HOME/queue.db).")
    String dbPath;

    @Override
    public Integer call() {
        Report report = Checkup.examine(context, dbPath);
        answer(output.json, () -> JsonDoctor.of(report),
                () -> context.out().print(DoctorText.render(report, Terminal.style(context, false))));
        return ExitCodes.okOr(!report.needsAttention(), ExitCodes.Outcome.FAILED);
    }
}
