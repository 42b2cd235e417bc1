package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.QueueConfig;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.store.AlertStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row the submit would refuse, written straight into queue.db (by an older version or by
 * hand), fails that job alone with its reason and an alert; the tick goes on placing and
 * launching the other jobs and enforcing timeouts.
 */
class PoisonJobTest {

    @TempDir
    Path dir;

    /** Room for every CPU job of the test at once. */
    private static QueueConfig roomy(QueueConfig q) {
        return new QueueConfig(q.includeLocal(), q.localNodeName(), q.tickMinInterval(), q.leaseSeconds(),
                q.headroomMb(), q.maxJobsPerGpu(), 100, q.placement(), q.jobRoot(), q.killGraceSeconds(),
                q.backoffMaxSeconds(), q.lostAfterSeconds(), q.logTailLines(), q.notifications(), q.backup());
    }

    /** Copies job {@code from} into a new row and then changes one column by SQL; returns the new id. */
    private long poison(FakeCluster cluster, long from, String set) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("queue.db"));
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("""
                    INSERT INTO jobs (name, command, gpus, vram_mb, node_request, workdir, env, timeout_s, max_retries,
                                      tags, submitter, state, priority, created_at)
                    SELECT name, command, gpus, vram_mb, node_request, workdir, env, timeout_s, max_retries, tags,
                           submitter, state, 10, created_at FROM jobs WHERE id = %d
                    """.formatted(from));
            long id;
            try (var rows = statement.executeQuery("SELECT max(id) FROM jobs")) {
                rows.next();
                id = rows.getLong(1);
            }
            statement.execute("PRAGMA ignore_check_constraints = ON"); // as a hand edit or another tool could
            statement.executeUpdate("UPDATE jobs SET " + set + " WHERE id = " + id);
            return id;
        }
    }

    @Test
    void poisonRowsFailAloneWhileOtherJobsLaunchAndTimeoutsAreEnforced() throws Exception {
        try (FakeCluster cluster = new FakeCluster(dir, PoisonJobTest::roomy, "node-a")) {
            long slow = cluster.submit("slow", 0, 0, 60L, 0);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(slow).state());

            long template = cluster.submit("good-1", 0, 0, null, 0);
            List<Long> poisons = List.of(
                    poison(cluster, template, "env = '{\"NVIDB_FOO\":\"1\"}'"),
                    poison(cluster, template, "command = 'echo a' || char(0) || 'b'"),
                    poison(cluster, template, "env = '{\"A B\":\"1\"}'"),
                    poison(cluster, template, "command = printf('%.200000c', 'x')"),
                    poison(cluster, template, "timeout_s = 9223372036854775807"));
            long good2 = cluster.submit("good-2", 0, 0, null, 0);

            cluster.clock.advanceSeconds(61);
            cluster.tick();

            assertEquals(JobState.TIMEOUT, cluster.job(slow).state(), "the timeout is enforced");
            assertTrue(cluster.node("node-a").attempts(slow).get(0).killed(), "and its kill went out");
            for (long good : List.of(template, good2)) {
                assertEquals(JobState.RUNNING, cluster.job(good).state(), "job " + good);
                assertEquals(1, cluster.node("node-a").running(good), "job " + good + " was launched");
            }
            for (long poison : poisons.subList(0, 4)) {
                Job job = cluster.job(poison);
                assertEquals(JobState.FAILED, job.state(), "poison job " + poison);
                assertTrue(job.lastError().startsWith("cannot launch: "), job.lastError());
                assertEquals(0, cluster.node("node-a").running(poison), "poison job " + poison + " never started");
            }
            long hugeTimeout = poisons.get(4);
            assertEquals(JobState.RUNNING, cluster.job(hugeTimeout).state(), "a timeout too large to overflow runs");
            long alerts = new AlertStore(cluster.database).listOpen().stream()
                    .filter(alert -> alert.kind().equals("job_failed")).count();
            assertEquals(4, alerts, "each poison job raised its alert");

            cluster.tick();
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(good2).state(), "later ticks go on");
        }
    }

    @Test
    void pendingRowWithBadJsonFailsAloneAndTheTickGoesOn() throws Exception {
        try (FakeCluster cluster = new FakeCluster(dir, PoisonJobTest::roomy, "node-a")) {
            long template = cluster.submit("good-1", 0, 0, null, 0);
            long badEnv = poison(cluster, template, "env = '{bad'");
            long badTags = poison(cluster, template, "tags = '[1,'");

            cluster.tick();

            assertEquals(JobState.RUNNING, cluster.job(template).state(), "the good job was placed");
            for (long damaged : List.of(badEnv, badTags)) {
                try (var rows = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("queue.db")).createStatement()
                        .executeQuery("SELECT state, last_error FROM jobs WHERE id = " + damaged)) {
                    rows.next();
                    assertEquals("failed", rows.getString(1), "job " + damaged);
                    assertTrue(rows.getString(2).contains("bad JSON"), rows.getString(2));
                }
                assertEquals(0, cluster.node("node-a").running(damaged), "job " + damaged + " never started");
            }
            long good2 = cluster.submit("good-2", 0, 0, null, 0);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(good2).state(), "later ticks go on");
        }
    }
}
