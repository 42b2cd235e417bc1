package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.queue.FakeNodeQueue;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.web.HistoryFixture;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built {@code bin/nvidb web} in headless Chromium: the Live page over this machine's fake
 * GPUs, History over a GPU log written through {@code GpuLog}, the Queue over a queue with three
 * jobs. A second queue (another home on this machine: the same person's other queue) runs a
 * {@code --vram 4G} job here, so its claim is real and the Live page must show it (the Queue page
 * reads its queue's stored probes, which a test queue of fake nodes fills). Asserts on the
 * rendered page and leaves screenshots in target/web-*.png for a person.
 */
class WebBrowserIT {

    private static final Path TARGET = Path.of(System.getProperty("nvidb.build.dir", "target"));

    @TempDir
    Path home;

    private Process web;
    private Path output;
    private Map<String, String> other;
    private String url;

    @BeforeEach
    void serve() throws Exception {
        Prerequisites.requireChromium();
        Path nvidbHome = home.resolve(".nvidb");
        Files.createDirectories(nvidbHome);
        HistoryFixture.write(nvidbHome.resolve("gpu_log.db"));
        try (FakeNodeQueue queue = new FakeNodeQueue(home, nvidbHome.resolve("queue.db"))) {
            queue.submit("train-resnet");
            queue.submit("eval-resnet");
            queue.submit("train-vit");
            queue.queue.ticking().now();
        }
        Path state = FakeGpuState.create().driver("550.54.14")
                .gpu(0, "NVIDIA GeForce RTX 4090", 24564).used(0, 9200).util(0, 63).temperature(0, 61).power(0, 280_000, 450_000)
                .gpu(1, "NVIDIA GeForce RTX 4090", 24564).used(1, 400).util(1, 2).temperature(1, 34).power(1, 25_000, 450_000)
                .writeTo(home.resolve("gpu-state"));
        Map<String, String> env = Launcher.localEnvironment(home);
        env.putAll(FakeGpuState.environment(state));
        env.put("NVIDB_CLAIMS_DIR", home.resolve("claims").toString());
        other = Launcher.localEnvironment(Files.createDirectories(home.resolve("other-queue")));
        other.putAll(FakeGpuState.environment(state));
        other.put("NVIDB_CLAIMS_DIR", home.resolve("claims").toString());
        Launcher.Run claimed = Launcher.run(other, "job", "submit", "--vram", "4G", "--name", "elsewhere", "--",
                "sleep 600");
        assertEquals(0, claimed.exitCode(), claimed.stdout() + claimed.stderr());
        Launcher.Run running = Launcher.run(other, "job", "show", "1");
        assertTrue(running.stdout().contains("running"), "the other queue's job runs: " + running.stdout());
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        output = home.resolve("web.out");
        web = Launcher.start(env, output, "web", "--port", String.valueOf(port));
        url = awaitUrl(port);
    }

    @AfterEach
    void stop() throws Exception {
        if (web != null && web.isAlive()) {
            web.destroyForcibly();
        }
        if (other != null) {
            Launcher.run(other, "job", "cancel", "1");
        }
    }

    private String awaitUrl(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String prefix = "http://127.0.0.1:" + port + "/?token=";
        while (System.nanoTime() < deadline && web.isAlive()) {
            for (String line : Files.readAllLines(output)) {
                if (line.startsWith(prefix)) {
                    return line.strip();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("bin/nvidb web printed no address within 60 s (alive: " + web.isAlive() + "): "
                + Files.readString(output));
    }

    @Test
    void theDashboardRendersLiveHistoryAndQueueAndStopsOnCtrlC() throws Exception {
        try (Chromium browser = Chromium.start(1400, 1000)) {
            browser.navigate(url);
            assertEquals("/", browser.evaluate("location.pathname + location.search").asText(),
                    "the token left the address bar once the cookie was set");
            live(browser);
            history(browser);
            queue(browser);
        }
        new ProcessBuilder("kill", "-INT", String.valueOf(web.pid())).start().waitFor();
        assertTrue(web.waitFor(30, TimeUnit.SECONDS), "bin/nvidb web ended within 30 s of SIGINT");
        assertEquals(130, web.exitValue(), Files.readString(output));
        assertTrue(!Files.readString(output).contains("\tat "), Files.readString(output));
    }

    private void live(Chromium browser) throws Exception {
        JsonNode names = browser.await("the local node's GPU table",
                "[...document.querySelectorAll('#live-nodes .node > table.grid tbody tr td:nth-child(2)')].map(td => td.textContent)",
                value -> value.size() == 2);
        assertEquals(List.of("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090"), Chromium.texts(names));
        assertEquals(2, browser.evaluate("document.querySelectorAll('#live-nodes .node .charts canvas').length").asInt());
        assertEquals("63%", browser.evaluate("document.querySelector('#live-nodes .node > table.grid tbody tr td:nth-child(3)').textContent").asText());
        assertEquals("9.0G / 24.0G", browser.evaluate("document.querySelector('#live-nodes .node > table.grid tbody tr td:nth-child(4)').textContent").asText());
        JsonNode claims = browser.await("the other queue's claim in the GPU table",
                "[...document.querySelectorAll('#live-nodes .node > table.grid tbody tr td:nth-child(8)')].map(td => td.textContent)",
                value -> Chromium.texts(value).stream().anyMatch(text -> text.contains("4.0G reserved, job 1 of queue")));
        assertEquals(1, Chromium.texts(claims).stream().filter(text -> !text.equals("-")).count(), claims.toString());
        browser.evaluate("document.getElementById('live-interval').value = '1';"
                + "document.getElementById('live-interval').dispatchEvent(new Event('change')); true");
        browser.await("the charts' legends", "document.querySelectorAll('#live-nodes .u-legend').length", value -> value.asInt() == 2);
        // A few refreshes, so the screenshot's charts have points to draw (not an assertion on time).
        browser.evaluate("new Promise(done => setTimeout(() => done(true), 3500))");
        browser.screenshot(TARGET.resolve("web-live.png"));
    }

    private void history(Chromium browser) throws Exception {
        browser.evaluate("location.hash = '#history'; true");
        int all = HistoryFixture.SAMPLES * 3 - 1;
        browser.await("the newest session's samples", "document.getElementById('history-count').textContent",
                value -> value.asText().equals(all + " rows"));
        assertEquals(2, browser.evaluate("document.querySelectorAll('#history-sessions tbody tr').length").asInt());
        assertEquals(1, browser.evaluate("document.querySelectorAll('#history-chart canvas').length").asInt());
        assertTrue(browser.evaluate("document.getElementById('history-failures').textContent").asText()
                .contains("gpu-b: connection timed out"));

        browser.evaluate("{ const pick = document.getElementById('history-node'); pick.value = 'gpu-b';"
                + "pick.dispatchEvent(new Event('change')); true }");
        browser.await("gpu-b's rows only", "document.getElementById('history-count').textContent",
                value -> value.asText().equals((HistoryFixture.SAMPLES - 1) + " rows"));
        assertEquals(List.of("gpu-b"), Chromium.texts(browser.evaluate(
                "[...new Set([...document.querySelectorAll('#history-table tbody tr td:nth-child(2)')].map(td => td.textContent))]")));

        JsonNode csv = browser.evaluate("fetch(document.getElementById('history-csv').href).then(r => r.text())"
                + ".then(text => text.trim().split('\\r\\n').slice(1).map(line => line.split(','))"
                + ".map(cells => [1, 2, 3, 5, 6].map(i => cells[i]).join(',')))");
        JsonNode table = browser.evaluate("[...document.querySelectorAll('#history-table tbody tr')].map(tr => "
                + "[...tr.children].slice(1, 6).map(td => td.textContent).join(','))");
        assertEquals(Chromium.texts(csv), Chromium.texts(table), "the CSV link returns the table's rows");

        browser.evaluate("document.querySelector('#history-table th[data-key=util_percent]').click(); true");
        JsonNode ascending = browser.evaluate("[...document.querySelectorAll('#history-table tbody tr td:nth-child(5)')]"
                + ".map(td => Number(td.textContent))");
        browser.evaluate("document.querySelector('#history-table th[data-key=util_percent]').click(); true");
        JsonNode descending = browser.evaluate("[...document.querySelectorAll('#history-table tbody tr td:nth-child(5)')]"
                + ".map(td => Number(td.textContent))");
        List<Integer> up = numbers(ascending);
        List<Integer> down = numbers(descending);
        assertEquals(up.stream().sorted().toList(), up, "ascending after one click");
        assertEquals(up.stream().sorted(java.util.Comparator.reverseOrder()).toList(), down, "descending after two");

        browser.evaluate("{ const pick = document.getElementById('history-node'); pick.value = '';"
                + "pick.dispatchEvent(new Event('change')); true }");
        browser.await("every row again", "document.getElementById('history-count').textContent",
                value -> value.asText().equals(all + " rows"));
        JsonNode box = browser.evaluate("(() => { const r = document.querySelector('#history-chart .u-over')"
                + ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()");
        double left = box.get(0).asDouble();
        double top = box.get(1).asDouble();
        double width = box.get(2).asDouble();
        double middle = top + box.get(3).asDouble() / 2;
        JsonNode before = browser.evaluate("window.nvidbHistory.xRange()");
        browser.mouse("mouseMoved", left + width * 0.2, middle);
        browser.mouse("mousePressed", left + width * 0.2, middle);
        browser.mouse("mouseMoved", left + width * 0.6, middle);
        browser.mouse("mouseReleased", left + width * 0.6, middle);
        JsonNode zoomed = browser.evaluate("window.nvidbHistory.xRange()");
        assertTrue(zoomed.get(1).asDouble() - zoomed.get(0).asDouble() < before.get(1).asDouble() - before.get(0).asDouble(),
                "dragging zoomed in: " + before + " -> " + zoomed);
        browser.evaluate("document.getElementById('history-pan-right').click(); true");
        JsonNode panned = browser.evaluate("window.nvidbHistory.xRange()");
        assertTrue(panned.get(0).asDouble() > zoomed.get(0).asDouble(), "panned right: " + zoomed + " -> " + panned);
        browser.evaluate("document.getElementById('history-zoom-reset').click(); true");

        browser.mouse("mouseMoved", left + width / 2, middle);
        browser.mouse("mousePressed", left + width / 2, middle);
        browser.mouse("mouseReleased", left + width / 2, middle);
        JsonNode pinned = browser.await("the pinned snapshot of every GPU",
                "[...document.querySelectorAll('#history-pinned-table tbody tr')].map(tr => tr.children[1].textContent + '/' "
                        + "+ tr.children[2].textContent)", value -> value.size() > 0);
        assertEquals(List.of("gpu-a/0", "gpu-a/1", "gpu-b/0"), Chromium.texts(pinned));
        browser.screenshot(TARGET.resolve("web-history.png"));
    }

    private void queue(Chromium browser) throws Exception {
        browser.evaluate("location.hash = '#queue'; true");
        JsonNode names = browser.await("the queue's jobs",
                "[...document.querySelectorAll('#queue-jobs tbody tr td:nth-child(2)')].map(td => td.textContent)",
                value -> value.size() == 3);
        assertEquals(List.of("eval-resnet", "train-resnet", "train-vit"), Chromium.texts(names).stream().sorted().toList());
        // The queue's nodes are the configured ones: here only this machine.
        assertEquals(1, browser.evaluate("document.querySelectorAll('#queue-nodes tbody tr').length").asInt());
        browser.screenshot(TARGET.resolve("web-queue.png"));
    }

    private static List<Integer> numbers(JsonNode array) {
        List<Integer> numbers = new java.util.ArrayList<>();
        array.forEach(node -> numbers.add(node.asInt()));
        return numbers;
    }
}
