package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nvidb web} in-process: a port in use is one line, exit 2; an interrupt stops the server, exit 130. */
class WebCommandTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void environment() throws Exception {
        env = CliRun.localQueue(home);
    }

    @Test
    void aPortInUseIsOneLineAndExit2() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            CliRun run = CliRun.run(env, "web", "--port", String.valueOf(port));
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals("nvidb: port " + port + " on 127.0.0.1 is in use; pick another with --port N\n", run.stderr());
            assertEquals("", run.stdout());
        }
    }

    @Test
    void theOldSpellingLogWebSaysItIsDeprecatedAndServesTheSame() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            CliRun run = CliRun.run(env, "log", "web", "--port", String.valueOf(port));
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals("nvidb: 'nvidb log web' is deprecated; use 'nvidb web' (same options)\n"
                    + "nvidb: port " + port + " on 127.0.0.1 is in use; pick another with --port N\n", run.stderr());
        }
    }

    @Test
    void anAddressThisMachineDoesNotHaveIsAUsageError() {
        CliRun run = CliRun.run(env, "web", "--bind", "192.0.2.1", "--port", "8501");
        assertEquals(2, run.exitCode(), run.stderr());
        // The warning about listening beyond this machine comes only once it listens: one line here.
        assertTrue(run.stderr().startsWith("nvidb: cannot listen on 192.0.2.1 port 8501"), run.stderr());
        assertTrue(!run.stderr().contains("warning"), run.stderr());
        assertTrue(!run.stderr().contains("\tat "), run.stderr());
    }

    @Test
    void servesUntilInterruptedThenExits130AndFreesThePortAndRemoteBeforeTheWordCounts() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread command = new Thread(() -> code.set(Cli.run(new Context(new HashMap<>(env), new PrintWriter(out, true),
                new PrintWriter(err, true), false), "--remote", "web", "--port", String.valueOf(port))), "web-command");
        command.start();
        String url = awaitLine(out, err);
        assertTrue(url.startsWith("http://127.0.0.1:" + port + "/?token="), url);
        String token = url.substring(url.indexOf("token=") + "token=".length());
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> queue = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/queue"))
                .header("X-Nvidb-Token", token).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, queue.statusCode(), queue.body());
        assertTrue(queue.body().contains("no queue at "), queue.body());
        HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/live"))
                .header("X-Nvidb-Token", token).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, live.statusCode(), live.body());
        assertTrue(live.body().replace(" ", "").contains("\"remote\":true"), "--remote before the command word: " + live.body());

        command.interrupt();
        command.join(30_000);
        assertEquals(false, command.isAlive(), "the command ended within 30 s of its interrupt");
        assertEquals(130, code.get(), err.toString());
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(port, again.getLocalPort());
        }
    }

    /** The first line of stdout, once the command printed it (deadline 30 s). */
    private static String awaitLine(StringWriter out, StringWriter err) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            String text = out.toString();
            if (text.contains("\n")) {
                return text.substring(0, text.indexOf('\n'));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("nvidb web printed no address within 30 s; stderr: " + err);
    }
}
