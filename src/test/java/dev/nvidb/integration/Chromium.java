package dev.nvidb.integration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Debian's headless Chromium driven over the DevTools protocol (a WebSocket from
 * {@code java.net.http}): navigate, evaluate JavaScript (awaiting promises), send mouse input,
 * capture screenshots. A fresh profile per instance, removed on close.
 */
final class Chromium implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    private Chromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /** Starts Chromium with a fresh profile and attaches to its page, {@code width} × {@code height} CSS pixels. */
    static Chromium start(int width, int height) throws Exception {
        Path profile = Files.createTempDirectory("nvidb-chromium-");
        Process process = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "--window-size=" + width + "," + height,
                "about:blank")
                .redirectErrorStream(true).redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile())
                .start();
        try {
            Path active = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + STEP.toNanos();
            while (!Files.exists(active) || Files.readAllLines(active).size() < 2) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("Chromium wrote no DevToolsActivePort within " + STEP.toSeconds()
                            + " s (alive: " + process.isAlive() + ")");
                }
                Thread.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(active).get(0).strip());
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String page = null;
            for (JsonNode target : JSON.readTree(list.body())) {
                if (target.path("type").asText().equals("page")) {
                    page = target.get("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (page == null) {
                throw new IllegalStateException("Chromium has no page target: " + list.body());
            }
            Chromium[] self = new Chromium[1];
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(page), new WebSocket.Listener() {
                private final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        String message = text.toString();
                        text.setLength(0);
                        self[0].received(message);
                    }
                    webSocket.request(1);
                    return null;
                }
            }).get(STEP.toSeconds(), TimeUnit.SECONDS);
            Chromium chromium = new Chromium(process, profile, socket);
            self[0] = chromium;
            chromium.call("Page.enable", Map.of());
            chromium.call("Emulation.setDeviceMetricsOverride",
                    Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
            return chromium;
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private void received(String message) {
        try {
            JsonNode node = JSON.readTree(message);
            if (node.has("id")) {
                CompletableFuture<JsonNode> waiting = pending.remove(node.get("id").asLong());
                if (waiting != null) {
                    waiting.complete(node);
                }
            }
        } catch (IOException e) {
            // not for us
        }
    }

    /** One DevTools command; its {@code result}, or an exception with the protocol's error. */
    JsonNode call(String method, Map<String, Object> params) throws Exception {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode request = JSON.createObjectNode().put("id", id).put("method", method);
        request.set("params", JSON.valueToTree(params));
        socket.sendText(JSON.writeValueAsString(request), true).get(STEP.toSeconds(), TimeUnit.SECONDS);
        JsonNode reply = answer.get(STEP.toSeconds(), TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + " failed: " + reply.get("error"));
        }
        return reply.get("result");
    }

    /** Opens {@code url} and waits for the document to load. */
    void navigate(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
        await("the page at " + url + " loaded", "document.readyState === 'complete' && location.href !== 'about:blank'",
                JsonNode::asBoolean);
    }

    /** The value of {@code expression} (a promise is awaited), as JSON. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result = call("Runtime.evaluate", Map.of("expression", expression, "awaitPromise", true,
                "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("JavaScript failed: " + expression + ": " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** Evaluates {@code expression} until {@code done} holds for its value (deadline 30 s); returns that value. */
    JsonNode await(String what, String expression, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + STEP.toNanos();
        JsonNode last = null;
        while (true) {
            try {
                last = evaluate(expression);
                if (done.test(last)) {
                    return last;
                }
            } catch (IllegalStateException e) {
                last = JSON.getNodeFactory().textNode(e.getMessage());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting " + STEP.toSeconds() + " s for " + what + "; last: " + last);
            }
            Thread.sleep(100);
        }
    }

    /** A mouse event at page coordinates: type mouseMoved, mousePressed or mouseReleased. */
    void mouse(String type, double x, double y) throws Exception {
        call("Input.dispatchMouseEvent", Map.of("type", type, "x", x, "y", y, "button", "left",
                "buttons", type.equals("mouseReleased") ? 0 : 1, "clickCount", 1));
    }

    /** Writes a PNG of the whole page to {@code file}. */
    void screenshot(Path file) throws Exception {
        JsonNode shot = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    }

    @Override
    public void close() throws IOException {
        socket.abort();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(profile)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a file Chromium was still writing: the temporary folder is left to the system
        }
        Files.deleteIfExists(profile.resolveSibling(profile.getFileName() + ".log"));
    }

    static List<String> texts(JsonNode array) {
        List<String> texts = new java.util.ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}
