package dev.nvidb.integration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One user's home for {@code bench/run}: its own {@code ~/.ssh} (the lab's key, an alias per node
 * and relay, their host keys) and {@code ~/.nvidb/queue.yml} naming some of the lab's nodes and
 * nothing else, so the queue runs with its shipped defaults. Runs the built {@code bin/nvidb} as
 * cold processes in that home and times them. Not a test.
 */
final class BenchHome {

    /** What one cold command did: its wall time, exit code and output. */
    record Timed(double ms, int exit, String out, String err) {
        boolean ok() {
            return exit == 0;
        }
    }

    private final String name;
    private final Path dir;
    private final Path project;
    private final Path build;

    private BenchHome(String name, Path dir, Path project, Path build) {
        this.name = name;
        this.dir = dir;
        this.project = project;
        this.build = build;
    }

    /**
     * Lays out a home. {@code sshConfig} and {@code knownHosts} are the lab's (every alias), the
     * key is copied; {@code servers} are the aliases queue.yml lists (none: no queue.yml).
     */
    static BenchHome create(String name, Path root, Path key, String sshConfig, String knownHosts,
                            List<String> servers, Path project, Path build) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        Path ssh = Files.createDirectories(dir.resolve(".ssh"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        Files.copy(key, ssh.resolve("id_ed25519"));
        Files.copy(key.resolveSibling("id_ed25519.pub"), ssh.resolve("id_ed25519.pub"));
        Files.setPosixFilePermissions(ssh.resolve("id_ed25519"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(ssh.resolve("config"), sshConfig);
        Files.writeString(ssh.resolve("known_hosts"), knownHosts);
        Path nvidb = Files.createDirectories(dir.resolve(".nvidb"));
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwx------"));
        if (!servers.isEmpty()) {
            StringBuilder yml = new StringBuilder("servers:\n");
            servers.forEach(server -> yml.append("  - hostname: ").append(server).append('\n'));
            Files.writeString(nvidb.resolve("queue.yml"), yml);
        }
        return new BenchHome(name, dir, project, build);
    }

    String name() {
        return name;
    }

    Path database() {
        return dir.resolve(".nvidb/queue.db");
    }

    Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        env.put("NVIDB_HOME", dir.resolve(".nvidb").toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "C.UTF-8");
        env.put("NVIDB_BUILD_DIR", build.toString());
        env.put("NVIDB_NO_BUILD", "1");   // measure commands, not the launcher's staleness check
        return env;
    }

    /** One cold {@code bin/nvidb ARGS} in this home, timed from fork to exit (bounded at 10 minutes). */
    Timed run(String... args) throws IOException, InterruptedException {
        return run(Map.of(), args);
    }

    /** The same with extra environment variables (e.g. {@code NVIDB_NO_HANDOFF}). */
    Timed run(Map<String, String> extra, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(project.resolve("bin/nvidb").toString());
        command.addAll(List.of(args));
        return exec(command, extra);
    }

    /**
     * The peak resident set of {@code bin/nvidb ARGS} and every process it waited for, in KiB, as
     * the kernel counts it for the waiting parent ({@code ru_maxrss} of its children).
     */
    long peakRssKib(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", "-c",
                "import resource, subprocess, sys\n"
                        + "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
                        + "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n",
                project.resolve("bin/nvidb").toString()));
        command.addAll(List.of(args));
        Timed timed = exec(command, Map.of());
        String[] fields = timed.out().strip().split(" ");
        if (!timed.ok() || fields.length != 2 || !fields[0].equals("0")) {
            throw new IOException("nvidb " + String.join(" ", args) + " failed under the RSS meter: " + timed);
        }
        return Long.parseLong(fields[1]);
    }

    /** Starts {@code bin/nvidb ARGS} in the background (the daemon), output to {@code log}. */
    Process start(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(project.resolve("bin/nvidb").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment());
        return builder.start();
    }

    private Timed exec(List<String> command, Map<String, String> extra) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment());
        builder.environment().putAll(extra);
        long start = System.nanoTime();
        Process process = builder.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in 10 minutes");
        }
        double ms = (System.nanoTime() - start) / 1e6;
        return new Timed(ms, process.exitValue(), out.join(), err.join());
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
