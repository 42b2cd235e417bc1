package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.DirRemovalReport.Outcome;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retention on the node: {@code remove_dirs} removes a finished job's directory
 * ({@code <job_root>/<queue>/<job>}, every attempt), and nothing else: never one where a process
 * of the job lives, never through a link, never anything but a job directory under job_root.
 */
class JobDirRemovalTest extends LocalJobs {

    private static final String QUEUE = "q0123abcd";

    private LaunchRequest launchInQueue(long id, String command) {
        JobSpec spec = new JobSpec("job-" + id, "cd \"$NVIDB_JOB_DIR\" || exit 1; " + command, 0, 0, null, null,
                Map.of(), List.of(), null, 0, List.of(), "tester@here");
        Assignment assignment = new Assignment("local", List.of(), List.of(), 1, "token-" + id);
        return new LaunchRequest(id, 1, "token-" + id, JobQuery.directory(ROOT + "/" + QUEUE, id, 1),
                RunScript.render(id, spec, assignment));
    }

    private List<DirRemovalReport> remove(DirRemoval... removals) {
        String reply = agent.sendRaw(AgentRequest.probe(ROOT).withoutSnapshot().withDirRemovals(List.of(removals)));
        List<DirRemovalReport> reports = DirRemovalReport.parse(reply);
        assertEquals(removals.length, reports.size(), reply);
        return reports;
    }

    private Path queueDir() {
        return home.resolve(".nvidb/jobs/" + QUEUE);
    }

    @Test
    void removesAFinishedJobsDirectoryWithEveryAttemptButNeverOneWhereTheJobStillRuns() throws Exception {
        LaunchRequest done = launchInQueue(1, "echo hi > out.txt");
        LaunchRequest running = launchInQueue(2, "sleep 600");
        launchAll(done, running);
        awaitEnd(done);
        Files.createDirectories(queueDir().resolve("1/2/work/deep"));  // its second (last) attempt's files
        Files.writeString(queueDir().resolve("1/2/work/deep/file"), "x");

        List<DirRemovalReport> reports = remove(new DirRemoval(1, ROOT + "/" + QUEUE + "/1", 2),
                DirRemoval.ofAttempt(2, running.dir()), new DirRemoval(3, ROOT + "/" + QUEUE + "/3"));

        assertEquals(Outcome.REMOVED, reports.get(0).outcome(), String.valueOf(reports.get(0).reason()));
        assertFalse(Files.exists(queueDir().resolve("1")));
        assertEquals(Outcome.RUNNING, reports.get(1).outcome());
        assertTrue(Files.exists(queueDir().resolve("2/1/pid")), "a running job's directory is never removed");
        assertEquals(JobReport.Status.RUNNING, query(running).status());
        assertEquals(Outcome.ABSENT, reports.get(2).outcome());
    }

    @Test
    void aJobRequeuedAndLaunchedAgainSinceTheQueueAskedKeepsItsDirectory() throws Exception {
        LaunchRequest first = launchInQueue(4, "true");
        launchAll(first);
        awaitEnd(first);
        Files.createDirectories(queueDir().resolve("4/2"));  // attempt 2 is being launched right now

        List<DirRemovalReport> reports = remove(DirRemoval.ofAttempt(4, first.dir()));

        assertEquals(Outcome.RUNNING, reports.get(0).outcome());
        assertTrue(Files.isDirectory(queueDir().resolve("4/1")) && Files.isDirectory(queueDir().resolve("4/2")));
        assertEquals(Outcome.REMOVED, remove(new DirRemoval(4, ROOT + "/" + QUEUE + "/4", 2)).get(0).outcome());
    }

    @Test
    void refusesLinksAndAnythingThatIsNotAJobDirectoryUnderTheJobRoot() throws Exception {
        Path victim = Files.createDirectories(dir.resolve("victim/keep"));
        Files.writeString(victim.resolve("precious"), "x");
        Files.createDirectories(queueDir());
        Files.createSymbolicLink(queueDir().resolve("5"), victim);
        Path linkedQueue = home.resolve(".nvidb/jobs/qlinked");
        Files.createSymbolicLink(linkedQueue, dir.resolve("victim"));
        Files.createDirectories(home.resolve(".nvidb/jobs/.launched"));
        Files.writeString(home.resolve(".nvidb/jobs/.launched/token-1"), "{}");
        Files.createDirectories(home.resolve("elsewhere/a/b"));

        List<DirRemovalReport> reports = remove(
                new DirRemoval(5, ROOT + "/" + QUEUE + "/5"),          // a link planted as a job directory
                new DirRemoval(6, ROOT + "/qlinked/keep"),             // a job directory reached through a link
                new DirRemoval(7, ROOT + "/" + QUEUE),                 // the queue's whole folder
                new DirRemoval(8, ROOT + "/.launched/token-1"),        // the launch ledger
                new DirRemoval(9, "~/elsewhere/a"),                     // outside job_root
                new DirRemoval(10, ROOT + "/" + QUEUE + "/../../../elsewhere"));

        for (DirRemovalReport report : reports) {
            assertEquals(Outcome.ERROR, report.outcome(), report.toString());
        }
        assertTrue(Files.exists(victim.resolve("precious")));
        assertTrue(Files.isSymbolicLink(queueDir().resolve("5")));
        assertTrue(Files.exists(home.resolve(".nvidb/jobs/.launched/token-1")));
        assertTrue(Files.isDirectory(home.resolve("elsewhere/a/b")));
        assertTrue(Files.isDirectory(queueDir()));
    }
}
