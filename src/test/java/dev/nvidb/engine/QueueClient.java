package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.store.Database;
import dev.nvidb.store.Lease;
import dev.nvidb.store.LeaseStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;

/**
 * One user's side of the queue: HOME and NVIDB_HOME pointing at a {@link QueueCluster}. Runs
 * CLI commands in-process (each run opens its own database connection and SSH pool, as a
 * separate client would) or as real JVM processes, and reads the queue's database and JSON.
 */
final class QueueClient {

    static final Set<String> ENDED = Set.of("completed", "failed", "cancelled", "timeout", "lost");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path home;
    private final Path nvidbHome;
    private final Map<String, String> environment;

    QueueClient(Path home, Path nvidbHome) {
        this.home = home;
        this.nvidbHome = nvidbHome;
        this.environment = Map.of("HOME", home.toString(), "NVIDB_HOME", nvidbHome.toString(),
                "USER", System.getProperty("user.name"));
    }

    Path queueDb() {
        return nvidbHome.resolve("queue.db");
    }

    /** Runs one command in this JVM. */
    CliRunner.Result run(String... args) {
        return CliRunner.run(environment, args);
    }

    /** Runs one command in this JVM, requires exit 0 and parses its JSON. */
    JsonNode json(String... args) {
        CliRunner.Result result = run(args);
        assertEquals(0, result.exitCode(), () -> String.join(" ", args) + " failed: " + result.stderr());
        try {
            return JSON.readTree(result.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts one command as a separate JVM ({@code java -cp <test classpath> dev.nvidb.cli.Main}),
     * its stdout and stderr going to files named after {@code label} in the client's home.
     */
    Process spawn(String label, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "dev.nvidb.cli.Main"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(home.resolve(label + ".out").toFile())
                .redirectError(home.resolve(label + ".err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a spawned command printed on stdout ({@code err = false}) or stderr. */
    String spawnedOutput(String label, boolean err) {
        try {
            return Files.readString(home.resolve(label + (err ? ".err" : ".out")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every job, from the database only ({@code job ls --no-tick --json}). */
    List<JsonNode> jobs() {
        return StreamSupport.stream(json("job", "ls", "--no-tick", "--json", "-n", "100000").get("jobs").spliterator(),
                false).toList();
    }

    /** Jobs by id. */
    Map<Long, JsonNode> jobsById() {
        Map<Long, JsonNode> byId = new HashMap<>();
        for (JsonNode job : jobs()) {
            if (byId.put(job.get("id").asLong(), job) != null) {
                fail("job " + job.get("id") + " is listed twice");
            }
        }
        return byId;
    }

    /** The whole event log ({@code queue events --no-tick --json}), page by page. */
    List<JsonNode> events() {
        List<JsonNode> all = new ArrayList<>();
        long since = 0;
        while (true) {
            JsonNode page = json("queue", "events", "--no-tick", "--json", "--since", Long.toString(since), "-n", "1000");
            page.get("events").forEach(all::add);
            if (page.get("events").isEmpty()) {
                return all;
            }
            since = page.get("next_since").asLong();
        }
    }

    /** {@code started} events per job and attempt. */
    Map<Long, Map<Integer, Integer>> startedEvents() {
        Map<Long, Map<Integer, Integer>> started = new HashMap<>();
        for (JsonNode event : events()) {
            if (event.get("kind").asText().equals("started")) {
                started.computeIfAbsent(event.get("job_id").asLong(), id -> new HashMap<>())
                        .merge(event.at("/detail/attempt").asInt(), 1, Integer::sum);
            }
        }
        return started;
    }

    /** Ticks ({@code queue tick}) until every job in {@code ids} has ended; fails after {@code deadline}. */
    void tickUntilEnded(Collection<Long> ids, Duration deadline) {
        Instant end = Instant.now().plus(deadline);
        while (true) {
            CliRunner.Result tick = run("queue", "tick", "--json");
            assertEquals(0, tick.exitCode(), tick.stderr());
            Map<Long, JsonNode> jobs = jobsById();
            List<String> open = ids.stream().filter(id -> !ENDED.contains(jobs.get(id).get("state").asText()))
                    .map(id -> id + ":" + jobs.get(id).get("state").asText()).toList();
            if (open.isEmpty()) {
                return;
            }
            if (Instant.now().isAfter(end)) {
                fail("jobs still not ended after " + deadline + ": " + open);
            }
        }
    }

    /** The tick lease as the database holds it now. */
    Lease lease() {
        try (Database database = Database.open(queueDb())) {
            return new LeaseStore(database).current();
        }
    }

    /** {@code PRAGMA integrity_check} of queue.db: "ok" when it is consistent. */
    String integrityCheck() {
        try (Database database = Database.open(queueDb())) {
            return database.read("check integrity", conn -> {
                StringBuilder answer = new StringBuilder();
                try (Statement statement = conn.createStatement();
                     ResultSet rows = statement.executeQuery("PRAGMA integrity_check")) {
                    while (rows.next()) {
                        answer.append(answer.isEmpty() ? "" : "; ").append(rows.getString(1));
                    }
                }
                return answer.toString();
            });
        }
    }

    /** Runs {@code sql} (a single-value query) against queue.db. */
    long count(String sql) {
        try (Database database = Database.open(queueDb())) {
            return database.read("count", conn -> {
                try (Statement statement = conn.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    rows.next();
                    return rows.getLong(1);
                }
            });
        }
    }

    /** Rows of {@code sql} against queue.db, one line each (for failure messages). */
    String rows(String sql) {
        try (Database database = Database.open(queueDb())) {
            return database.read("read rows", conn -> {
                StringBuilder text = new StringBuilder();
                try (Statement statement = conn.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        for (int column = 1; column <= columns; column++) {
                            text.append(rows.getMetaData().getColumnName(column)).append('=')
                                    .append(rows.getString(column)).append(column < columns ? " " : "\n");
                        }
                    }
                }
                return text.toString();
            });
        }
    }

    /** Polls {@code condition} every 10 ms until it holds; fails with {@code what} after {@code deadline}. */
    static void await(String what, Duration deadline, BooleanSupplier condition) {
        Instant end = Instant.now().plus(deadline);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(end)) {
                fail("timed out after " + deadline + " waiting for " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
