package dev.nvidb.cli;

import dev.nvidb.app.HeadStart;
import dev.nvidb.app.Wiring;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Ticking;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb job wait ID… [--timeout S]}: block until the jobs end (0 all completed, 1 one failed, 2 timed out). */
@Command(name = "wait", description = "Wait for jobs to end: exit 0 all completed, 1 any ended badly, 2 timed out.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job wait 12",
                "  nvidb job wait 12 13 --timeout 600 --logs 20"})
final class JobWaitCommand implements Callable<Integer>, HandedCommand {

    private final Context context;
    private final HeadStart headStart;

    @Mixin
    QueueOptions options;

    @Parameters(arity = "1..*", paramLabel = "ID")
    List<String> ids;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = NumberOption.WaitTimeout.class, description = "Give up after this long (exit 2).")
    Long timeout;
    @Option(names = "--logs", paramLabel = "N", converter = NumberOption.Count.class, description = "Also give the last N lines of each job's stdout.")
    int logs;

    JobWaitCommand(Context context, HeadStart headStart) {
        this.context = context;
        this.headStart = headStart;
    }

    /** Waits without a terminal in the daemon, whose ticks it would ask for anyway; Ctrl-C here stops it there. */
    @Override
    public DaemonRequest handed(Context context, List<String> line, String directory) {
        return new DaemonRequest.Wait(HandedCommand.options(options), ids.stream().map(JobIds::parse).toList(), timeout,
                logs);
    }

    @Override
    public void takeOver(DaemonRequest request) {
        DaemonRequest.Wait wait = (DaemonRequest.Wait) request;
        HandedCommand.takeOver(options, wait.options());
        ids = wait.ids().stream().map(String::valueOf).toList();
        timeout = wait.timeoutSeconds();
        logs = wait.logs();
    }

    @Override
    public Integer call() {
        List<Long> jobs = ids.stream().map(JobIds::parse).toList();
        try (Wiring wiring = (options.noTick ? new Wiring(context) : headStart.wiring(context, options)).lastUse()) {
            Queue queue = wiring.queueHolding(options, jobs);
            // A wait ticks more than once: its agents stay up between its ticks (begun before the
            // line was parsed: HeadStart).
            try (Ticking.AgentScope agents = options.noTick ? () -> { }
                    : wiring.lasting(queue.ticking().keepAgents(wiring.takeAgents()))) {
                wiring.refresh(queue, options, true);
                return JobWaiting.await(context, queue, options, jobs, timeout, logs);
            }
        }
    }
}
