package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.FailureClass;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Event;
import dev.nvidb.store.EventStore;
import dev.nvidb.testing.FakeNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failure classes and OOM retries through the real tick on the in-process fake node: the class
 * is recorded with the failure, an OOM job with {@code --retry-oom} is queued again with more
 * memory, and nothing else is retried by it.
 */
class FailuresOnFakeNodesTest {

    private static final String OOM_LOG = "Traceback (most recent call last):\n"
            + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB";

    @TempDir
    Path dir;

    @Test
    void anOomJobIsRetriedWithAQuarterMoreThanItsPeakUntilItsRetriesAreUsed() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train", 1, 10_000, new RunPolicy(false, 1));
            cluster.tick();
            Job first = cluster.job(id);
            assertEquals(JobState.RUNNING, first.state());
            node.uses(id, first.assignment().gpuIds().get(0), 16_000);
            cluster.tick(); // the peak is measured

            node.exit(id, 1, null, OOM_LOG);
            cluster.tick();
            Job second = cluster.job(id);
            assertEquals(20_000, second.spec().vramMb(), "ceil(1.25 x the 16000 MiB peak)");
            assertEquals(2, second.attempt());
            assertEquals(JobState.RUNNING, second.state(), "queued again and placed by the same tick");
            assertEquals(2, node.attempts(id).size());
            Event retried = new EventStore(cluster.database).listSince(0, id, 100).stream()
                    .filter(event -> String.valueOf(event.kind()).equals("retried")).findFirst().orElseThrow();
            assertTrue(retried.detail().contains("\"vram_mb\":20000"), retried.detail());
            assertTrue(retried.detail().contains("\"failure_class\":\"oom\""), retried.detail());
            Alert alert = alert(cluster, "job_retried");
            assertTrue(alert.message().contains("ran out of memory on node-a; retried with 20000 MiB per GPU"
                    + " (was 10000 MiB, peak seen 16000 MiB)"), alert.message());

            node.exit(id, 1, null, OOM_LOG); // the one retry is used: it fails for good
            cluster.tick();
            Job failed = cluster.job(id);
            assertEquals(JobState.FAILED, failed.state());
            assertEquals(FailureClass.OOM, failed.failureClass());
            assertEquals(2, node.attempts(id).size(), "not retried again");
            assertEquals(1, new dev.nvidb.store.JobStore(cluster.database).getJob(id).oomRetries());
            assertTrue(failed.lastError().startsWith("exited with status 1: out of memory (CUDA out of memory"),
                    failed.lastError());
            assertTrue(alert(cluster, "job_failed").message().endsWith("(failure class: oom)"));
        }
    }

    @Test
    void withoutAPeakAnOomRetryRaisesTheReservationByAQuarter() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            long id = cluster.submit("train", 1, 8_000, new RunPolicy(false, 2));
            cluster.tick();
            cluster.node("node-a").exit(id, 137, null, "RESOURCE_EXHAUSTED: Out of memory");
            cluster.tick();
            assertEquals(10_000, cluster.job(id).spec().vramMb());
            assertEquals(2, cluster.job(id).attempt());
        }
    }

    @Test
    void oomRetriesDoNotUseUpTheRetriesOfAVanishedProcess() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long id = cluster.submit("train", 1, 8_000, 1, new RunPolicy(false, 2));
            cluster.tick();
            node.exit(id, 1, null, OOM_LOG);
            cluster.tick();
            node.exit(id, 1, null, OOM_LOG);
            cluster.tick();
            assertEquals(3, cluster.job(id).attempt(), "two OOM retries");
            node.vanish(id);
            cluster.tick();
            assertEquals(JobState.RUNNING, cluster.job(id).state(), "its one --retries is still there");
            assertEquals(4, cluster.job(id).attempt());
            node.vanish(id);
            cluster.tick();
            assertEquals(JobState.LOST, cluster.job(id).state());
            assertEquals(FailureClass.LOST, cluster.job(id).failureClass());
        }
    }

    @Test
    void otherFailuresAreClassifiedAndNotRetriedByRetryOom() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long exit = cluster.submit("exit", 1, 1_000, new RunPolicy(false, 3));
            long killed = cluster.submit("killed", 1, 1_000, new RunPolicy(false, 3));
            long plain = cluster.submit("plain", 1, 1_000, RunPolicy.DEFAULT);
            cluster.tick();
            node.exit(exit, 2, null, "ValueError: bad input");
            node.exit(killed, 137, null, "step 40");
            node.exit(plain, 1, null, OOM_LOG);
            cluster.tick();
            assertEquals(FailureClass.EXIT_CODE, cluster.job(exit).failureClass());
            assertEquals(FailureClass.SIGNAL, cluster.job(killed).failureClass());
            assertEquals("exited with status 137: killed by signal 9 (KILL)", cluster.job(killed).lastError());
            assertEquals(FailureClass.OOM, cluster.job(plain).failureClass(), "classified, not retried: no --retry-oom");
            for (long id : List.of(exit, killed, plain)) {
                assertEquals(JobState.FAILED, cluster.job(id).state());
                assertEquals(1, node.attempts(id).size());
            }
        }
    }

    @Test
    void aWorkingDirectoryTheRunScriptCouldNotEnterIsTheRecordedError() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long missing = cluster.submit("missing", 1, 1_000, RunPolicy.DEFAULT);
            long own126 = cluster.submit("own", 1, 1_000, RunPolicy.DEFAULT);
            long quoted = cluster.submit("quoted", 1, 1_000, RunPolicy.DEFAULT);
            cluster.tick();
            node.exit(missing, 126, null, "run.sh: line 11: cd: /nope: No such file or directory\n"
                    + "nvidb: cannot enter the working directory /nope\n");
            node.exit(own126, 126, null, "bash: ./train.sh: Permission denied\n");
            node.exit(quoted, 126, null, "echo 'nvidb: cannot enter the working directory /x' from the job\n");
            cluster.tick();
            assertEquals("exited with status 126: cannot enter the working directory /nope",
                    cluster.job(missing).lastError());
            assertEquals("exited with status 126", cluster.job(own126).lastError(), "the job's own 126: nothing added");
            assertEquals("exited with status 126", cluster.job(quoted).lastError(), "only a line of its own counts");
        }
    }

    @Test
    void lostTimedOutAndCancelledJobsGetTheirClassOrNone() {
        try (FakeCluster cluster = new FakeCluster(dir, "node-a")) {
            FakeNode node = cluster.node("node-a");
            long lost = cluster.submit("lost", 1, 1_000, null, 0);
            long slow = cluster.submit("slow", 1, 1_000, 60L, 0);
            long cancelled = cluster.submit("cancelled", 1, 1_000, null, 0);
            cluster.tick();
            node.vanish(lost);
            cluster.cancel(cancelled);
            cluster.clock.advanceSeconds(61);
            cluster.tick();
            assertEquals(FailureClass.LOST, cluster.job(lost).failureClass());
            assertEquals(FailureClass.TIMEOUT, cluster.job(slow).failureClass());
            assertEquals(null, cluster.job(cancelled).failureClass(), "a cancelled job did not fail");
        }
    }

    private static Alert alert(FakeCluster cluster, String kind) {
        return new AlertStore(cluster.database).listOpen().stream().filter(a -> a.kind().equals(kind))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no " + kind + " alert"));
    }
}
