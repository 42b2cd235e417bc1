package dev.nvidb.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /**
     * A queue of this machine only (node "here") under {@code home}: {@code $NVIDB_HOME} is
     * {@code home/.nvidb}. Returns the environment to run commands with.
     */
    static Map<String, String> localQueue(Path home) throws IOException {
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n");
        return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
    }
}
