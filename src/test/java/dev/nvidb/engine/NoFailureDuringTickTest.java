package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.store.Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md §4 invariant 6 (the reference tool's "scheduler is busy"): while one client holds
 * the tick lease in a long tick (one node answers slowly), {@code job cancel}, {@code job
 * requeue}, {@code queue drain}, {@code queue resume}, {@code job note} and {@code job priority}
 * from other clients all succeed, and all of them finish while that tick still holds the lease;
 * their effects survive the tick.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NoFailureDuringTickTest {

    private static final String JOB_ROOT = "~/.nvidb/jobs-no-failure";
    private static final Pattern TROUBLE = Pattern.compile("(?i)locked|busy|exception|internal error");
    private static QueueCluster cluster;

    @TempDir
    Path home;

    @BeforeAll
    static void startCluster() {
        cluster = new QueueCluster();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void cleanUp() {
        cluster.slow("node-c", 0);
        cluster.killLeftovers(JOB_ROOT);
    }

    @Test
    void adminCommandsSucceedWhileAnotherClientHoldsTheLeaseInALongTick() throws Exception {
        QueueClient client = cluster.client(home, JOB_ROOT);
        long cancelled = submit(client, "--node", "node-a", "--", "sleep 60");
        long requeued = submit(client, "--node", "node-b", "--", "sleep 60");
        long held = submit(client, "--after", Long.toString(cancelled), "--", "true");
        assertEquals("running", state(client, cancelled));
        assertEquals("running", state(client, requeued));

        cluster.slow("node-c", 400);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            Future<CliRunner.Result> tick = pool.submit(() -> client.run("queue", "tick", "--json"));
            QueueClient.await("the long tick to take the lease", Duration.ofSeconds(30),
                    () -> client.lease().held(Instant.now()) || tick.isDone());
            assertFalse(tick.isDone(), "the tick is still probing the slow node");
            Lease during = client.lease();

            Map<String, CompletableFuture<CliRunner.Result>> commands = new LinkedHashMap<>();
            commands.put("job cancel", run(pool, client, "job", "cancel", Long.toString(cancelled)));
            commands.put("job requeue", run(pool, client, "job", "requeue", Long.toString(requeued)));
            commands.put("job note", run(pool, client, "job", "note", Long.toString(held), "checked during a tick"));
            commands.put("job priority", run(pool, client, "job", "priority", Long.toString(held), "7"));
            commands.put("queue drain, then resume", CompletableFuture.supplyAsync(() -> {
                CliRunner.Result drain = client.run("queue", "drain", "node-b");
                return drain.exitCode() != 0 ? drain : client.run("queue", "resume", "node-b");
            }, pool));
            CompletableFuture.allOf(commands.values().toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            assertFalse(tick.isDone(), "every command finished while the tick was still running");
            assertEquals(during.holder(), client.lease().holder(), "the same tick held the lease throughout");
            for (Map.Entry<String, CompletableFuture<CliRunner.Result>> command : commands.entrySet()) {
                CliRunner.Result result = command.getValue().get();
                assertEquals(0, result.exitCode(), command.getKey() + ": " + result.stderr());
                assertFalse(TROUBLE.matcher(result.stderr()).find(), command.getKey() + ": " + result.stderr());
            }

            CliRunner.Result ticked = tick.get(60, TimeUnit.SECONDS);
            assertEquals(0, ticked.exitCode(), ticked.stderr());
        } finally {
            pool.shutdownNow();
        }

        assertEquals("cancelled", state(client, cancelled));
        JsonNode again = client.json("job", "show", "--no-tick", "--json", Long.toString(requeued)).get("job");
        assertTrue(List.of("pending", "running").contains(again.get("state").asText()), again::toString);
        assertEquals("checked during a tick", job(client, held).get("notes").asText());
        assertEquals(7, job(client, held).get("priority").asInt());
    }

    private static long submit(QueueClient client, String... args) {
        String[] command = new String[args.length + 3];
        command[0] = "job";
        command[1] = "submit";
        command[2] = "--json";
        System.arraycopy(args, 0, command, 3, args.length);
        return client.json(command).at("/job/id").asLong();
    }

    private static CompletableFuture<CliRunner.Result> run(ExecutorService pool, QueueClient client, String... args) {
        return CompletableFuture.supplyAsync(() -> client.run(args), pool);
    }

    private static JsonNode job(QueueClient client, long id) {
        return client.json("job", "show", "--no-tick", "--json", Long.toString(id)).get("job");
    }

    private static String state(QueueClient client, long id) {
        return job(client, id).get("state").asText();
    }
}
