package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonJob;
import dev.nvidb.output.JsonWhy;
import dev.nvidb.output.WhyText;
import dev.nvidb.scheduler.Explanation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job why} end to end over the in-process fake node (two 80 GB GPUs) and the real tick:
 * the explanation is made from the last stored answer, and agrees with what the tick does.
 */
class ExplainingTest {

    @TempDir
    Path dir;

    private static long submit(FakeNodeQueue fixture, String name, long vramMb) {
        return fixture.queue.submitting().submit(new SubmitRequest(name, "python train.py", 1, vramMb, null, null,
                Map.of(), 0, List.of(), List.of(), null, 0, List.of(), null, "tester@here"));
    }

    private static String text(WhyView view) {
        return WhyText.render(view, view.at());
    }

    @Test
    void aJobLargerThanEveryGpuSaysItCanNeverFitWithTheLargestGpusSize() {
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("queue.db"))) {
            fixture.queue.ticking().now(); // the node's answer is stored; the job below is not ticked yet
            long id = submit(fixture, "huge", 90 * 1024);
            WhyView why = fixture.queue.explaining().why(id);

            assertEquals(Explanation.Outcome.NEVER, why.explanation().outcome());
            assertEquals(Explanation.FitKind.NEVER, why.explanation().fit().kind());
            assertEquals("nowhere: no GPU can hold 92160 MiB: the largest, gpu1 GPU0, has 81559 MiB, 81047 MiB after "
                    + "the 512 MiB headroom", why.explanation().fit().message());
            String shown = text(why);
            assertTrue(shown.contains("can never run: no GPU can hold 92160 MiB"), shown);
            assertTrue(shown.contains("too small: holds at most 81047 MiB"), shown);
            shown.lines().forEach(line -> assertTrue(line.length() <= 80, "80 columns: " + line));

            fixture.queue.ticking().now();
            assertEquals(JobState.FAILED, fixture.queue.reading().getJob(id).job().state(), "the tick agrees: never");
        }
    }

    @Test
    void aJobBehindForeignProcessesSaysWhichGpuHasHowMuchFree() throws java.io.IOException {
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("queue.db"))) {
            fixture.node.foreignProcess(0, 40960).foreignProcess(1, 30000);
            long id = submit(fixture, "fifty", 50 * 1024);
            fixture.queue.ticking().now();
            JobView stored = fixture.queue.reading().getJob(id);
            assertEquals(JobState.PENDING, stored.job().state());

            WhyView why = fixture.queue.explaining().why(id);
            Explanation explanation = why.explanation();
            assertEquals(stored.pendingReason(), explanation.reason(), "job why and the tick say the same");
            assertEquals("waiting for 51200 MiB on 1 GPU (best: gpu1 GPU1 has 51047 MiB free)", explanation.reason());
            Explanation.GpuVerdict gpu0 = explanation.nodes().get(0).gpus().get(0);
            assertEquals(40960L, gpu0.budget().externalMb());
            assertEquals(81559L - 40960 - 512, gpu0.freeMb());
            assertEquals(Explanation.GpuKind.SHORT, gpu0.kind());
            assertEquals("short by 11113 MiB", gpu0.message());
            assertEquals("short by 153 MiB (kept for this job)", explanation.nodes().get(0).gpus().get(1).message());
            String shown = text(why);
            dev.nvidb.output.Golden.assertMatches("job-why.txt", shown);
            dev.nvidb.output.Golden.assertMatches("job-why.json", dev.nvidb.output.Json.write(dev.nvidb.output.JsonWhy.of(
                    dev.nvidb.output.JsonJob.of(stored.job(), stored.pendingReason(), stored.unverifiedSince(), null), why)));
            assertTrue(shown.contains("       0   81559   40960       0   40087  short by 11113 MiB"), shown);
            assertTrue(shown.contains("would start: nowhere now; first on gpu1 GPU1 (kept for it), once 153 MiB more"),
                    shown);
            shown.lines().forEach(line -> assertTrue(line.length() <= 80, "80 columns: " + line));

            String json = Json.write(JsonWhy.of(JsonJob.of(stored.job(), stored.pendingReason(), null, null, null), why));
            assertTrue(json.contains("\"outcome\" : \"waits\""), json);
            assertTrue(json.contains("\"kind\" : \"no_room\""), json);
            assertTrue(json.contains("\"external_mb\" : 40960"), json);
            assertTrue(json.contains("\"free_mb\" : 40087"), json);
        }
    }

    @Test
    void whereItWouldStartIsWhereTheTickStartsIt() {
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), dir.resolve("queue.db"))) {
            fixture.node.foreignProcess(0, 10000);
            fixture.queue.ticking().now();
            long id = submit(fixture, "fits", 20 * 1024);
            WhyView why = fixture.queue.explaining().why(id);
            assertEquals(Explanation.Outcome.STARTS, why.explanation().outcome());
            assertEquals(List.of(), why.explanation().blockers());

            fixture.queue.ticking().now();
            JobView started = fixture.queue.reading().getJob(id);
            assertEquals(JobState.RUNNING, started.job().state());
            assertEquals(why.explanation().fit().node(), started.job().assignment().node());
            assertEquals(why.explanation().fit().gpuIndices(), started.job().assignment().gpuIds());

            WhyView running = fixture.queue.explaining().why(id);
            assertFalse(running.explained());
            assertNull(running.explanation());
            assertTrue(text(running).startsWith("job " + id + " (fits) is running, not pending"), text(running));
        }
    }
}
