package dev.nvidb.cli;

import dev.nvidb.app.LogSession;
import dev.nvidb.app.Wiring;
import dev.nvidb.error.UsageException;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nvidb log}: samples every node's GPUs and processes into the GPU history until Ctrl-C
 * (or {@code --duration}), one session per run. A signal ends the session cleanly: the probes in
 * flight are recorded (for up to two seconds), the session gets its end time, the file is closed.
 */
@Command(name = "log", description = "Record GPU history (utilisation, memory, processes) into SQLite.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb log                          this machine, every 5 s, until Ctrl-C",
                "  nvidb log --remote --interval 10   every configured server too, every 10 s",
                "  nvidb log --db-path /data/gpus.db  somewhere else than ~/.nvidb/gpu_log.db",
                "  nvidb log --duration 3600          one hour, then stop",
                "",
                "Browse what was recorded with 'nvidb web'.", "Settings: the log: section of config.yml."})
final class LogCommand extends ContextCall {

    @Option(names = "--remote", negatable = true,
            description = "Include the servers in config.yml (default: basic.remote; --no-remote for this machine only).")
    Boolean remote;

    @Option(names = "--interval", paramLabel = "SEC", converter = NumberOption.Interval.class,
            description = "Seconds between two samples of a node (default: log.interval, 5).")
    Double interval;

    @Option(names = "--db-path", paramLabel = "PATH", description = "The GPU log to write (default: log.db_path, ~/.nvidb/gpu_log.db).")
    String dbPath;

    @Option(names = "--duration", paramLabel = "SEC", converter = NumberOption.Interval.class,
            description = "Stop after SEC seconds (default: run until Ctrl-C).")
    Double duration;

    @Option(names = "--verbose", description = "Show stack traces of internal errors.")
    boolean verbose;

    @Override
    public Integer call() {
        if (interval != null && interval < 0.2) {
            throw new UsageException("--interval must be at least 0.2 seconds, got " + interval, "nvidb log --interval 5");
        }
        try (Wiring wiring = new Wiring(context)) {
            LogSession.record(wiring, remote, interval == null ? null : Duration.ofMillis(Math.round(interval * 1000)),
                    dbPath, duration == null ? null : Duration.ofMillis(Math.round(duration * 1000)), context.err());
            return ExitCodes.ok();
        }
    }
}
