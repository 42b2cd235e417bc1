package dev.nvidb.keeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Finding and running the system's programs (systemctl, journalctl) for the keeper. */
final class Programs {

    /** What a program printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {

        boolean ok() {
            return exitCode == 0;
        }

        /** The first non-empty line of stderr (else stdout), for a one-line error. */
        String firstLine() {
            for (String text : List.of(stderr, stdout)) {
                for (String line : text.split("\n")) {
                    if (!line.isBlank()) {
                        return line.strip();
                    }
                }
            }
            return "exit status " + exitCode;
        }
    }

    private Programs() {
    }

    /** The program {@code name} on the environment's PATH, without running anything. */
    static Optional<Path> find(Map<String, String> environment, String name) {
        String path = environment.getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir).resolve(name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Runs {@code command} with the environment, stdin from /dev/null, and returns what it
     * printed; a program that is missing or does not end within {@code limit} is exit 127 / 124.
     */
    static Result run(Map<String, String> environment, List<String> command, Duration limit) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return new Result(127, "", command.get(0) + ": " + e.getMessage());
        }
        try {
            var out = new java.util.concurrent.CompletableFuture<String>();
            Thread reader = new Thread(() -> out.complete(read(process.getInputStream())));
            reader.setDaemon(true);
            reader.start();
            String err = read(process.getErrorStream());
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new Result(124, "", command.get(0) + " did not answer within " + limit.toSeconds() + " s");
            }
            return new Result(process.exitValue(), out.get(limit.toMillis(), TimeUnit.MILLISECONDS), err);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted while running " + command.get(0), e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            process.destroyForcibly();
            return new Result(124, "", command.get(0) + " did not answer within " + limit.toSeconds() + " s");
        }
    }

    private static String read(java.io.InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
