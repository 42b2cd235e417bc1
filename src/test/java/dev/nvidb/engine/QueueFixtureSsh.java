package dev.nvidb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.testing.SshHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A client of the queue for tests: its own home and queue.db, queue servers that are harness
 * SSH hosts, and helpers to run CLI commands in-process and read their JSON.
 */
final class QueueFixtureSsh {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path home;
    private final Map<String, String> environment;

    QueueFixtureSsh(SshHarness harness, Path home, List<String> servers, String queueSettings) {
        this.home = home;
        try {
            harness.writeClientHome(home);
            Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
            StringBuilder yaml = new StringBuilder("servers:\n");
            servers.forEach(name -> yaml.append("  - hostname: ").append(name).append('\n'));
            yaml.append("queue:\n  tick_min_interval: 0\n  lease_seconds: 10\n");
            queueSettings.lines().forEach(line -> yaml.append("  ").append(line).append('\n'));
            Files.writeString(nvidb.resolve("queue.yml"), yaml.toString());
            Files.writeString(nvidb.resolve("config.yml"), "basic:\n  connect_timeout: 2\n  command_timeout: 20\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.environment = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString(),
                "USER", "tester");
    }

    Path home() {
        return home;
    }

    /** Runs a CLI command; fails the test unless it exits with {@code expected}. */
    CliRunner.Result run(int expected, String... args) {
        CliRunner.Result result = CliRunner.run(environment, args);
        if (result.exitCode() != expected) {
            throw new AssertionError("nvidb " + String.join(" ", args) + " exited " + result.exitCode() + ", expected "
                    + expected + "\nstdout: " + result.stdout() + "\nstderr: " + result.stderr());
        }
        return result;
    }

    JsonNode json(String... args) {
        try {
            return JSON.readTree(run(0, args).stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Submits and returns the id. */
    long submit(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "job";
        full[1] = "submit";
        full[2] = "--json";
        System.arraycopy(args, 0, full, 3, args.length);
        return json(full).at("/job/id").asLong();
    }

    JsonNode job(long id) {
        return json("job", "show", String.valueOf(id), "--json", "--no-tick").get("job");
    }

    /** Ticks until {@code done} holds for the job, or fails after {@code limit}. */
    JsonNode tickUntil(long id, Predicate<JsonNode> done, Duration limit) {
        Instant deadline = Instant.now().plus(limit);
        while (true) {
            tick();
            JsonNode job = job(id);
            if (done.test(job)) {
                return job;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("job " + id + " did not get there within " + limit + ": " + job);
            }
            pause();
        }
    }

    /** Ticks until {@code done} holds for the queue status, or fails after {@code limit}. */
    JsonNode tickUntilStatus(Predicate<JsonNode> done, Duration limit) {
        Instant deadline = Instant.now().plus(limit);
        while (true) {
            tick();
            JsonNode status = json("queue", "status", "--json", "--no-tick");
            if (done.test(status)) {
                return status;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the queue did not get there within " + limit + ": " + status);
            }
            pause();
        }
    }

    /** One forced tick; exit 1 (some node did not answer) is expected in outage tests. */
    JsonNode tick() {
        CliRunner.Result result = CliRunner.run(environment, "queue", "tick", "--json");
        if (result.exitCode() > 1) {
            throw new AssertionError("queue tick exited " + result.exitCode() + ": " + result.stderr());
        }
        try {
            return JSON.readTree(result.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where attempt {@code attempt} of job {@code id} lives on {@code host}'s disk (the harness host's home). */
    Path attemptDir(dev.nvidb.testing.TestHost host, long id, int attempt) {
        JsonNode job = job(id);
        String dir = job.get("job_dir").asText();
        String base = dir.substring(0, dir.lastIndexOf('/'));
        String relative = (base + "/" + attempt).substring(2);
        return host.home().resolve(relative);
    }

    static String state(JsonNode job) {
        return job.get("state").asText();
    }

    /** A short pause between polls of state that other processes (jobs on the nodes) change. */
    static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
