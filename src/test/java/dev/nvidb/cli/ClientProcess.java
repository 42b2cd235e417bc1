package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.daemon.Handoff;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command run in a process of its own as bin/nvidb starts one (no terminal, stdin empty), its
 * class loading logged: whether the line was handed to a daemon or ticker ({@link Handoff}) is
 * read from what the client JVM loaded. One that handed it over sent its words and relayed the
 * answer ({@code Handoff$Relay}) and never parsed them (picocli); one the daemon refused, or that
 * never asked, ran the command itself.
 */
final class ClientProcess {

    private static final long LIMIT_SECONDS = 60;

    private ClientProcess() {
    }

    record Client(int code, String out, String err, String classes) {
        boolean handedOver() {
            return classes.contains("dev.nvidb.daemon.Handoff$Relay ") && !classes.contains("picocli.CommandLine ");
        }
    }

    /** Runs {@code args} in {@code dir} with exactly {@code environment}; {@code name} names its files there. */
    static Client run(Path dir, String name, Map<String, String> environment, String... args) throws Exception {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Path classes = dir.resolve(name + ".classes");
        List<String> command = new ArrayList<>(List.of(java(), "-Xlog:class+load=info:file=" + classes,
                "-cp", System.getProperty("java.class.path"), "dev.nvidb.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(new File("/dev/null"));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertTrue(process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS), "client " + List.of(args) + " hung");
        return new Client(process.exitValue(), read(out), read(err), read(classes));
    }

    /**
     * A real {@code queue daemon} process for the queue of {@code environment}, passing only when
     * asked (its interval is an hour), its output in {@code home/daemon.log}; returned once it
     * serves its socket and its first pass is done (one JSON line per pass).
     */
    static Process daemon(Path home, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                "dev.nvidb.cli.Main", "queue", "daemon", "--interval", "3600", "--json")
                .redirectErrorStream(true).redirectOutput(home.resolve("daemon.log").toFile())
                .redirectInput(new File("/dev/null"));
        builder.environment().putAll(environment);
        Process daemon = builder.start();
        Path socket = home.resolve(".nvidb/queue.db.daemon");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        while (!Files.exists(socket) || read(home.resolve("daemon.log")).lines().noneMatch(line -> line.startsWith("{"))) {
            assertTrue(System.nanoTime() < deadline && daemon.isAlive(),
                    "the daemon never served its first pass: " + read(home.resolve("daemon.log")));
            Thread.sleep(50); // a poll with a deadline
        }
        return daemon;
    }

    static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    /** The java of this test JVM. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
