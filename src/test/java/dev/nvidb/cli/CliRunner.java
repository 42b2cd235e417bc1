package dev.nvidb.cli;

import java.util.Map;

/** Public entry for tests in other packages: runs the CLI in-process and captures its streams. */
public final class CliRunner {

    /** What one run printed and returned. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    private CliRunner() {
    }

    public static Result run(Map<String, String> environment, String... args) {
        CliRun run = CliRun.run(environment, args);
        return new Result(run.exitCode(), run.stdout(), run.stderr());
    }
}
