package dev.nvidb.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.node.Node;
import dev.nvidb.output.Golden;
import dev.nvidb.queue.FakeNodeQueue;
import dev.nvidb.testing.FakeClock;
import dev.nvidb.testing.FakeNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every API document against its golden file (src/test/resources/golden/web-*.json), over a GPU
 * log written through {@code GpuLog}, a queue with a fake node, and fake nodes for Live; and the
 * errors: one line each, with 400, 404 or 409.
 */
class WebApiTest {

    @TempDir
    Path home;

    private final AccessToken token = AccessToken.random();
    private final FakeClock clock = FakeClock.atDefaultStart();
    private final FakeNode up = new FakeNode("gpu1", clock).gpu("NVIDIA H100 80GB HBM3", 81559).gpu("NVIDIA H100 80GB HBM3", 81559);
    private final FakeNode down = new FakeNode("gpu2", clock);
    private FakeNodeQueue fakeQueue;
    private WebServer server;
    private WebClient client;
    private WebApi api;

    @BeforeEach
    void start() {
        down.reach(FakeNode.Reach.DOWN);
        fakeQueue = new FakeNodeQueue(home, home.resolve("queue.db"));
        fakeQueue.submit("train-a");
        fakeQueue.submit("train-b");
        fakeQueue.submit("train-c");
        fakeQueue.queue.ticking().now();
        Path log = HistoryFixture.write(home.resolve("gpu_log.db"));
        LiveFeed live = new LiveFeed(scope -> scope == LiveFeed.Scope.LOCAL ? List.of(new Node("gpu1", false, up))
                : List.of(new Node("gpu1", false, up), new Node("gpu2", false, down)), Duration.ofSeconds(5), "~/.nvidb/jobs");
        api = new WebApi(live, false, new HistoryApi(log), new QueueApi(home.resolve("queue.db"), () -> fakeQueue.queue, () -> null));
        server = WebServer.start("127.0.0.1", 0, token, api);
        client = new WebClient(server, token);
    }

    @AfterEach
    void stop() {
        server.close();
        api.close();
    }

    private String ok(String path) throws Exception {
        HttpResponse<String> response = client.get(path);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    private void refused(String path, int status, String error) throws Exception {
        HttpResponse<String> response = client.get(path);
        assertEquals(status, response.statusCode(), path + ": " + response.body());
        assertEquals("{\n  \"error\" : " + dev.nvidb.output.Json.write(error) + "\n}", response.body(), path);
    }

    @Test
    void historyDocumentsMatchTheirGoldenFiles() throws Exception {
        Golden.assertMatches("web-history-sessions.json", ok("/api/history/sessions").replace(home.toString(), "HOME"));
        Golden.assertMatches("web-history-samples.json", ok("/api/history/samples?session=2&node=gpu-b&from=1767322830&limit=4"));
        Golden.assertMatches("web-history-processes.json", ok("/api/history/processes?session=2"));
        Golden.assertMatches("web-history-samples.csv", ok("/api/history/samples.csv?session=2&gpu=0&to=2026-01-02T03:00:15Z"));
    }

    @Test
    void filtersNarrowTheRowsAndTheCsvHasTheSameRows() throws Exception {
        com.fasterxml.jackson.databind.JsonNode all = json(ok("/api/history/samples?session=2"));
        assertEquals(HistoryFixture.SAMPLES * 3 - 1, all.get("samples").size());
        assertEquals(1, all.get("failures").size());
        com.fasterxml.jackson.databind.JsonNode gpuA = json(ok("/api/history/samples?session=2&node=gpu-a&gpu=1"));
        assertEquals(HistoryFixture.SAMPLES, gpuA.get("samples").size());
        assertEquals(0, gpuA.get("failures").size());
        String csv = ok("/api/history/samples.csv?session=2&node=gpu-a&gpu=1");
        List<String> lines = csv.lines().toList();
        assertEquals(SampleCsv.HEADER, lines.get(0));
        assertEquals(HistoryFixture.SAMPLES + 1, lines.size());
        for (int i = 0; i < HistoryFixture.SAMPLES; i++) {
            assertTrue(lines.get(i + 1).startsWith(HistoryFixture.START.plusSeconds(5L * i) + ",gpu-a,1,"), lines.get(i + 1));
        }
        com.fasterxml.jackson.databind.JsonNode limited = json(ok("/api/history/samples?session=2&limit=5"));
        assertEquals(5, limited.get("samples").size());
        assertEquals(true, limited.get("truncated").asBoolean());
    }

    @Test
    void badHistoryRequestsAreOneLineWithTheirStatus() throws Exception {
        refused("/api/history/samples", 400, "parameter session is required (an id from /api/history/sessions)");
        refused("/api/history/samples?session=x", 400, "parameter session=x is not a whole number from 1 to 9223372036854775807");
        refused("/api/history/samples?session=2&gpu=-1", 400, "parameter gpu=-1 is not a whole number from 0 to 1023");
        refused("/api/history/samples?session=2&from=yesterday", 400,
                "parameter from=yesterday is not a time: give seconds since the epoch or ISO-8601 like 2026-01-02T03:04:05Z");
        refused("/api/history/samples?session=2&from=20&to=10", 400, "parameter to is before from: nothing can match");
        refused("/api/history/samples?session=99", 404, "no session 99 in the GPU log " + home.resolve("gpu_log.db"));
        refused("/api/history/processes?session=99", 404, "no session 99 in the GPU log " + home.resolve("gpu_log.db"));
    }

    @Test
    void aMissingLogIsA404SayingHowToMakeOneAndAFileThatIsNotALogA409() throws Exception {
        Path missing = home.resolve("elsewhere/gpu_log.db");
        HistoryApi history = new HistoryApi(missing);
        assertEquals(false, history.exists());
        try (WebServer other = WebServer.start("127.0.0.1", 0, token,
                new WebApi(api.live(), false, history, api.queue()).routes())) {
            HttpResponse<String> response = new WebClient(other, token).get("/api/history/sessions");
            assertEquals(404, response.statusCode());
            assertEquals("{\n  \"error\" : \"no GPU log at " + missing + "; run 'nvidb log' first\"\n}", response.body());
        }
        Path garbage = Files.writeString(home.resolve("garbage.db"), "this is not a database, just text ".repeat(200));
        HistoryApi broken = new HistoryApi(garbage);
        assertTrue(broken.problem().isPresent());
        try (WebServer other = WebServer.start("127.0.0.1", 0, token,
                new WebApi(api.live(), false, broken, api.queue()).routes())) {
            HttpResponse<String> response = new WebClient(other, token).get("/api/history/sessions");
            assertEquals(409, response.statusCode(), response.body());
            assertEquals(broken.problem().orElseThrow(), json(response.body()).get("error").asText());
            assertEquals(1, response.body().lines().filter(line -> line.contains("error")).count(), response.body());
        }
    }

    @Test
    void queueDocumentMatchesItsGoldenFile() throws Exception {
        // Job directories live under the queue's random id.
        Golden.assertMatches("web-queue.json", ok("/api/queue").replaceAll("/jobs/q[0-9a-z]+/", "/jobs/QUEUE/"));
    }

    @Test
    void liveShowsEveryNodeAndAFailingNodesLine() throws Exception {
        String local = awaitProbed("/api/live");
        assertEquals(false, json(local).get("remote").asBoolean());
        assertEquals(1, json(local).get("nodes").size());
        String both = awaitProbed("/api/live?remote=1");
        Golden.assertMatches("web-live.json", both.replaceAll("\"at\" : [0-9.]+", "\"at\" : 0")
                .replaceAll("\"probe_ms\" : [0-9]+", "\"probe_ms\" : 0"));
        assertEquals(List.of(LiveFeed.Scope.LOCAL, LiveFeed.Scope.WITH_SERVERS), api.live().runningScopes());
    }

    /** Two and a half of the feed's probe intervals. */
    private static final Duration QUIET = LiveFeed.INTERVAL.multipliedBy(5).dividedBy(2);

    @Test
    void liveProbesStopWhenNobodyAsks() throws Exception {
        try (LiveFeed feed = new LiveFeed(scope -> List.of(new Node("gpu1", false, up)), Duration.ofSeconds(5), "~",
                java.time.Clock.systemUTC(), Duration.ofMillis(300))) {
            feed.read(LiveFeed.Scope.LOCAL);
            assertEquals(List.of(LiveFeed.Scope.LOCAL), feed.runningScopes());
            // While someone reads, a window of QUIET sees probes: the same window after the feed
            // stopped is then long enough to see one that should not be there.
            long before = up.probes();
            long readUntil = System.nanoTime() + QUIET.toNanos();
            while (System.nanoTime() < readUntil) {
                feed.read(LiveFeed.Scope.LOCAL); // well within the feed's 300 ms idle time
                Thread.sleep(50);
            }
            assertTrue(up.probes() > before, "the feed probed no node in " + QUIET + " while read");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!feed.runningScopes().isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the feed was still probing 30 s after its last read");
                Thread.sleep(50);
            }
            // Its worker threads end (a probe in flight finishes first); with none left no probe can follow.
            while (Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(thread -> thread.getName().equals("monitor-gpu1") && thread.isAlive())) {
                assertTrue(System.nanoTime() < deadline, "the feed's worker still ran 30 s after its last read");
                Thread.sleep(50);
            }
            long probes = up.probes();
            Thread.sleep(QUIET.toMillis());
            assertEquals(probes, up.probes(), "a probe " + QUIET + " after the feed stopped");
        }
    }

    /** The live document once no node is still waiting for its first probe (deadline 30 s). */
    private String awaitProbed(String path) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            String body = ok(path);
            if (!body.contains("\"probing\"")) {
                return body;
            }
            assertTrue(System.nanoTime() < deadline, "a node was still probing after 30 s: " + body);
            Thread.sleep(50);
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String text) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    }
}
