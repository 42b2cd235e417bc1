package dev.nvidb.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;

/** Runs the command line in-process with its own environment and captures both streams. */
record CliRun(int exitCode, String stdout, String stderr) {

    static CliRun run(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>(environment);
        int code = Cli.run(new Context(env, new PrintWriter(out, true), new PrintWriter(err, true), false), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
