package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job directories on a node (here the real agent on this machine) go {@code job_dirs_days} after
 * their job ended; a running job's never; the job's row stays until {@code finished_jobs_days}.
 */
class JobDirRetentionTest {

    @TempDir
    Path home;

    private static JobView awaitState(QueueFixture fixture, long id, JobState wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            fixture.queue.ticking().now();
            JobView job = fixture.queue.reading().getJob(id);
            if (job.job().state() == wanted) {
                return job;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " is " + job.job().state() + ", not " + wanted);
            }
            fixture.clock.advance(Duration.ofSeconds(1));
        }
    }

    /** A node path of the local node: {@code ~} is the home the agent runs with (this process's). */
    private static Path onThisMachine(String nodePath) {
        String userHome = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(nodePath.startsWith("~/") ? userHome + nodePath.substring(1) : nodePath);
    }

    @Test
    void finishedJobsDirectoriesAreRemovedOnTheNodeAfterTheirLimitAndARunningJobsNever() throws Exception {
        try (QueueFixture fixture = new QueueFixture(home)) {
            long done = fixture.submit("done");
            long running = fixture.queue.submitting().submit(new SubmitRequest("sleeper", "sleep 600", 0, 0, null, null,
                    Map.of(), 0, List.of(), List.of(), null, 0, List.of(), null, "tester@here"));
            try {
                Path doneDir = onThisMachine(awaitState(fixture, done, JobState.COMPLETED).jobDir());
                Path runningDir = onThisMachine(awaitState(fixture, running, JobState.RUNNING).jobDir());
                assertTrue(Files.isDirectory(doneDir) && Files.isDirectory(runningDir));

                fixture.clock.advance(Duration.ofDays(13));
                assertEquals(0, fixture.queue.retention().run(false).jobDirs(), "not before job_dirs_days (14)");
                assertTrue(Files.isDirectory(doneDir));

                fixture.clock.advance(Duration.ofDays(2));
                RetentionResult result = fixture.queue.retention().run(false);
                assertEquals(List.of(), result.problems());
                assertEquals(1, result.jobDirs());
                assertFalse(Files.exists(doneDir.getParent()), "the job's directory with all its attempts");
                assertTrue(Files.isDirectory(runningDir), "a running job's directory stays");
                assertEquals(JobState.COMPLETED, fixture.queue.reading().getJob(done).job().state(),
                        "the row stays until finished_jobs_days (30)");

                assertEquals(0, fixture.queue.retention().run(false).jobDirs(), "asked once, not at every run");

                fixture.clock.advance(Duration.ofDays(16));
                assertEquals(List.of(done), fixture.queue.retention().run(false).jobs());
                assertTrue(Files.isDirectory(runningDir));
            } finally {
                fixture.queue.control().cancel(List.of(running));
            }
        }
    }
}
