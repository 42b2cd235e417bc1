package dev.nvidb.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the built {@code bin/nvidb} as a separate process, as a user would. */
final class Launcher {

    /** What one run printed and returned. */
    record Run(int exitCode, String stdout, String stderr) {
    }

    private Launcher() {
    }

    /** The environment of a user whose home is {@code home}, with a plain system PATH. */
    static Map<String, String> localEnvironment(Path home) {
        Map<String, String> env = new java.util.HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        return env;
    }

    static Run run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        Process process = builder(environment, args).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("bin/nvidb " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new Run(process.exitValue(), out.join(), err.join());
    }

    /**
     * Starts {@code bin/nvidb args} without waiting (a long-running command: log, web); its
     * output goes to {@code output} (stdout and stderr together), its input is /dev/null.
     */
    static Process start(Map<String, String> environment, Path output, String... args) throws IOException {
        return builder(environment, args).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static ProcessBuilder builder(Map<String, String> environment, String... args) {
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        List<String> command = new java.util.ArrayList<>(List.of(project.resolve("bin/nvidb").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        // `verify` packaged the jar just before; never rebuild it under a running suite.
        builder.environment().put("NVIDB_NO_BUILD", "1");
        builder.environment().put("NVIDB_BUILD_DIR", System.getProperty("nvidb.build.dir", project.resolve("target").toString()));
        return builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    }

    private static String read(java.io.InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
