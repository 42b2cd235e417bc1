package dev.nvidb.cli;

import dev.nvidb.app.LiveMonitor;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonMonitor;
import dev.nvidb.output.MonitorText;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The root command: the GPU monitor. Plain {@code nvidb} opens the interactive monitor of this
 * machine ({@code --remote}: of every configured server too) on the terminal; {@code nvidb --once}
 * prints this machine's GPUs, {@code nvidb --once --remote} every configured server's too, probed
 * in parallel. {@code --once} exits 1 when a node did not answer (see {@link #answered}).
 */
@Command(name = "nvidb", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "GPU monitor and daemonless GPU job queue over SSH.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb --remote                        every server, live (q quits, ? helps)",
                "  nvidb --once                          this machine's GPUs",
                "  nvidb --once --remote --json          every configured server's too, as JSON",
                "  nvidb add gpu-a                       add a server, then: nvidb trust gpu-a",
                "  nvidb job submit --vram 20G -- python train.py",
                "  nvidb queue status",
                "  nvidb help job submit                 the help of one command",
                "",
                "Exit codes: 0 ok; 1 failed (a node did not answer, a waited job failed,",
                "alerts open); 2 usage error, or a wait timed out; 130 interrupted.",
                "See docs/exit-codes.md."})
final class NvidbCommand extends ContextCall {

    /** Seconds between two probes of a node in the interactive monitor. */
    static final double DEFAULT_INTERVAL = 2;

    @Mixin
    JsonOption output;

    @Option(names = "--once", description = "Print GPU status once and exit.")
    boolean once;

    @Option(names = "--remote", negatable = true,
            description = "Include the servers in config.yml (default: basic.remote; --no-remote for this machine only).")
    Boolean remote;

    @Option(names = "--interval", paramLabel = "SEC", converter = NumberOption.Interval.class,
            description = "Seconds between two probes of a node in the interactive monitor (default 2).")
    Double interval;

    @Override
    public Integer call() {
        if (!once && output.json) {
            throw new UsageException("--json needs --once: the interactive monitor draws on a terminal",
                    "nvidb --once --json");
        }
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            boolean withServers = remote != null ? remote : config.basic().remote();
            if (!once) {
                return LiveMonitor.run(context, wiring, withServers,
                        Duration.ofMillis(Math.round(1000 * (interval == null ? DEFAULT_INTERVAL : interval))));
            }
            List<ProbeResult> results = LiveMonitor.once(wiring, withServers);
            boolean ok = LiveMonitor.answered(results, withServers);
            if (output.json) {
                context.out().println(Json.write(JsonMonitor.of(results, ok)));
            } else {
                context.out().print(MonitorText.render(results, Terminal.width(context), Terminal.style(context, false)));
            }
            context.out().flush();
            return ExitCodes.okOr(ok, ExitCodes.Outcome.FAILED);
        }
    }
}
