package dev.nvidb.cli;

import dev.nvidb.agent.AgentReplyParser;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.ProbeResult;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonMonitor;
import dev.nvidb.output.MonitorText;
import dev.nvidb.ssh.ExecResult;
import dev.nvidb.ssh.Rehearsal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Hidden: walks the code paths a typical command takes (configuration, an SSH probe, reply
 * parsing, JSON and text output, the queue commands), so the class-data sharing archive the
 * build makes from this run's class list covers them. The SSH probe runs only when the build's
 * training ({@code src/cds}) gives it a server on loopback ({@code --ssh PORT --identity FILE});
 * that server echoes its input, and this jar contains none.
 */
@Command(name = "__warmup", hidden = true)
final class WarmupCommand extends ContextCall {

    private static final String REPLY = "{\"schema_version\": 1, \"source\": \"nvml\", \"error\": null,"
            + " \"node\": {\"hostname\": \"warm\", \"load\": [0.1, 0.2, 0.3]}, \"driver_version\": \"1\","
            + " \"gpus\": [{\"index\": 0, \"name\": \"GPU\", \"mem_total_mb\": 100, \"mem_used_mb\": 1, \"processes\":"
            + " [{\"pid\": 1, \"type\": \"compute\", \"mem_mb\": 1, \"user\": \"u\", \"name\": \"n\", \"command\": \"c\"}]}]}";

    @Option(names = "--ssh", description = "port of an SSH server on 127.0.0.1 that echoes its input")
    private Integer sshPort;

    @Option(names = "--identity", description = "private key that server accepts")
    private Path identity;

    /** The queue commands' paths: SQLite, the stores, a tick on this machine, the job views. */
    private void rehearseQueue(Path dir, Path nvidbHome) throws IOException {
        Files.writeString(nvidbHome.resolve("queue.yml"), "queue:\n  local_node_name: warm\n  tick_min_interval: 0\n");
        Map<String, String> env = Map.of("NVIDB_HOME", nvidbHome.toString(), "HOME", dir.toString());
        java.io.StringWriter sink = new java.io.StringWriter();
        java.io.PrintWriter writer = new java.io.PrintWriter(sink);
        Context quiet = new Context(env, writer, writer, false);
        for (String[] args : List.of(
                new String[] {"job", "submit", "--no-tick", "--gpus", "0", "--", "true"},
                new String[] {"job", "submit", "--no-tick", "--vram", "1G", "--", "true"},
                new String[] {"queue", "tick", "--json"},
                new String[] {"job", "ls", "--no-tick"},
                new String[] {"job", "ls", "--no-tick", "--json"},
                new String[] {"job", "show", "1", "--no-tick", "--json"},
                new String[] {"queue", "status", "--no-tick"},
                new String[] {"queue", "status", "--no-tick", "--json"},
                new String[] {"queue", "events", "--no-tick", "--json"})) {
            Cli.run(quiet, args);
        }
    }

    @Override
    public Integer call() throws IOException {
        Path dir = Files.createTempDirectory("nvidb-warmup");
        try {
            Path nvidbHome = Files.createDirectories(dir.resolve("nvidb"));
            try (InputStream example = WarmupCommand.class.getResourceAsStream("/config.example.yml")) {
                if (example != null) {
                    Files.write(nvidbHome.resolve("config.yml"), example.readAllBytes());
                }
            }
            new ConfigLoader(NvidbHome.fromEnvironment(Map.of("NVIDB_HOME", nvidbHome.toString(), "HOME",
                    dir.toString()), dir.toString()), Map.of()).load();
            AgentScript script = AgentScript.bundled();
            script.onceInput("{}");   // built as a probe builds it; the training server only echoes what it gets
            byte[] reply = REPLY.getBytes(StandardCharsets.UTF_8);
            byte[] stderr = new byte[0];
            if (sshPort != null && identity != null) {
                ExecResult result = Rehearsal.run(dir, sshPort, identity, script.onceCommand(), reply);
                reply = result.stdout();
                stderr = result.stderr();
            }
            NodeSnapshot snapshot = AgentReplyParser.parse("warm", reply, stderr);
            List<ProbeResult> results = List.of(ProbeResult.answered("warm", "local", snapshot, Duration.ZERO));
            context.out().println(Json.write(JsonMonitor.of(results)));
            context.out().println(MonitorText.render(results, 80));
            rehearseQueue(dir, nvidbHome);
            return ExitCodes.ok();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
