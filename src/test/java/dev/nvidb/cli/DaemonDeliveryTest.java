package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue daemon} delivering alerts as real processes (issue 8, item 1): two daemons at
 * once deliver each of 50 alerts exactly once per channel, and a daemon killed (SIGKILL) in the
 * middle of a delivery loses nothing: the next daemon takes its claim over once it expires,
 * and the one alert it was delivering may arrive twice (the documented duplicate, same id).
 */
class DaemonDeliveryTest {

    private static final long DEADLINE_SECONDS = 120;

    @TempDir
    Path home;

    private final List<Process> daemons = new ArrayList<>();
    private final List<ProcessHandle> hooks = new ArrayList<>();
    private Map<String, String> env;

    @AfterEach
    void stopEverything() throws Exception {
        for (Process daemon : daemons) {
            hooks.addAll(daemon.descendants().toList());
            daemon.destroyForcibly();
            daemon.waitFor(30, TimeUnit.SECONDS);
        }
        hooks.forEach(ProcessHandle::destroyForcibly);
    }

    private Path nvidbHome() {
        return home.resolve(".nvidb");
    }

    /** A local queue whose only node is ignored (no node is probed), notify as given, and {@code count} open alerts. */
    private void queue(String notify, int count) throws Exception {
        env = new HashMap<>(CliRun.localQueue(home));
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Files.writeString(nvidbHome().resolve("queue.yml"), "queue:\n  local_node_name: here\n  notify:\n"
                + notify.indent(4));
        CliRun ignore = CliRun.run(env, "queue", "ignore", "here");
        assertEquals(0, ignore.exitCode(), ignore.stderr());
        try (Connection connection = connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO alerts (at, dedup_key, kind, severity,"
                     + " job_id, node, message) VALUES (?, ?, 'job_failed', 'error', ?, 'here', ?)")) {
            for (int i = 1; i <= count; i++) {
                insert.setLong(1, System.currentTimeMillis());
                insert.setString(2, "job_failed:" + i + ":1");
                insert.setLong(3, i);
                insert.setString(4, "job " + i + " failed (exit 1)");
                insert.executeUpdate();
            }
        }
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + nvidbHome().resolve("queue.db"));
    }

    private long delivered() throws Exception {
        try (Connection connection = connect();
             Statement sql = connection.createStatement();
             ResultSet rows = sql.executeQuery("SELECT count(*) FROM alert_deliveries WHERE delivered_at IS NOT NULL")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private Path script(String name, String body) throws IOException {
        Path script = home.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /** {@code nvidb queue daemon} as its own JVM, like the keeper starts it. */
    private Process daemon() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "queue", "daemon", "--interval", "0.2")
                .redirectOutput(home.resolve("daemon-" + daemons.size() + ".out").toFile())
                .redirectError(home.resolve("daemon-" + daemons.size() + ".err").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        daemons.add(process);
        return process;
    }

    private void await(String what, ThrowingCheck check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!check.done()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what + "; daemon stderr: " + daemonErrors());
            }
            for (Process daemon : daemons) {
                if (!daemon.isAlive() && daemon.exitValue() != 137) {
                    throw new AssertionError("a daemon ended (" + daemon.exitValue() + "): " + daemonErrors());
                }
            }
            Thread.sleep(50); // a poll with a deadline
        }
    }

    private String daemonErrors() throws IOException {
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < daemons.size(); i++) {
            errors.append("\n[").append(i).append("] ").append(Files.readString(home.resolve("daemon-" + i + ".err")))
                    .append(Files.readString(home.resolve("daemon-" + i + ".out")));
        }
        return errors.toString();
    }

    interface ThrowingCheck {
        boolean done() throws Exception;
    }

    private List<String> lines(String file) throws IOException {
        Path path = home.resolve(file);
        return Files.exists(path) ? Files.readAllLines(path) : List.of();
    }

    private List<String> loggedIds() throws IOException {
        Path log = nvidbHome().resolve("alerts.log");
        return Files.readAllLines(log).stream()
                .map(line -> line.replaceAll("^\\{\"schema_version\":1,\"id\":([0-9]+),.*\\}$", "$1")).toList();
    }

    private static Map<String, Long> counted(List<String> ids) {
        return ids.stream().collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
    }

    /**
     * Two daemon processes started together over 50 alerts, on the log and on a hook slow
     * enough (0.1 s) that both daemons deliver at the same time: every alert reaches each
     * channel exactly once, and both daemons delivered some.
     */
    @Test
    void twoDaemonsAtOnceDeliverEachOfFiftyAlertsExactlyOncePerChannel() throws Exception {
        Path hook = script("hook.sh", "cat > /dev/null\necho \"$NVIDB_ALERT_ID $PPID\" >> \"$(dirname \"$0\")/received\"\n"
                + "sleep 0.1\n");
        queue("log: true\ncommand: [\"" + hook + "\"]\n", 50);
        Process first = daemon();
        Process second = daemon();
        await("100 deliveries (50 alerts, 2 channels)", () -> delivered() == 100);
        Map<String, Long> hooked = counted(lines("received").stream().map(line -> line.split(" ")[0]).toList());
        assertEquals(50, hooked.size(), "every alert reached the hook: " + hooked);
        assertTrue(hooked.values().stream().allMatch(n -> n == 1), "each exactly once: " + hooked);
        Map<String, Long> logged = counted(loggedIds());
        assertEquals(50, logged.size(), "every alert is in alerts.log: " + logged);
        assertTrue(logged.values().stream().allMatch(n -> n == 1), "each line once: " + logged);
        Map<String, Long> byDaemon = counted(lines("received").stream().map(line -> line.split(" ")[1]).toList());
        assertEquals(List.of(String.valueOf(first.pid()), String.valueOf(second.pid())).stream().sorted().toList(),
                List.copyOf(byDaemon.keySet()), "both daemons delivered, at the same time: " + byDaemon);
    }

    /**
     * A daemon SIGKILLed while its hook blocks on an alert: after a new daemon starts, every
     * alert is delivered on both channels, the alert being delivered at the kill at most twice
     * (once the claim expired: the hook's timeout, 3 s, plus 5 s), every other exactly once.
     */
    @Test
    void aDaemonKilledMidDeliveryLosesNothingAndDuplicatesAtMostTheAlertInFlight() throws Exception {
        Files.writeString(home.resolve("block"), "");
        Path hook = script("hook.sh", "cat > /dev/null\necho \"$NVIDB_ALERT_ID\" >> \"$(dirname \"$0\")/received\"\n"
                + "if [ -e \"$(dirname \"$0\")/block\" ]; then exec sleep 120; fi\n");
        queue("log: true\ncommand: [\"" + hook + "\"]\ncommand_timeout_seconds: 3\n", 5);
        Process killed = daemon();
        await("the hook to block on the first alert", () -> !lines("received").isEmpty());
        hooks.addAll(killed.descendants().toList());
        killed.destroyForcibly(); // SIGKILL: no clean-up of any kind
        assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, killed.exitValue(), "killed by SIGKILL");
        hooks.forEach(ProcessHandle::destroyForcibly);
        String inFlight = lines("received").get(0);
        assertEquals(List.of(inFlight), lines("received"), "the daemon died in its first delivery to the hook");
        Files.delete(home.resolve("block"));

        daemon();
        await("10 deliveries (5 alerts, 2 channels)", () -> delivered() == 10);
        Map<String, Long> hooked = counted(lines("received"));
        assertEquals(5, hooked.size(), "nothing lost: " + hooked);
        hooked.forEach((id, times) -> assertEquals(id.equals(inFlight) ? 2L : 1L, times,
                "alert " + id + " (in flight at the kill: " + inFlight + "): " + hooked));
        Map<String, Long> logged = counted(loggedIds());
        assertEquals(5, logged.size(), "every alert is in alerts.log: " + logged);
        assertTrue(logged.values().stream().allMatch(n -> n == 1), "the log was recorded before the kill: " + logged);
    }
    /**
     * The front end: {@code queue daemon --once} reports delivery in its text line and its
     * JSON (exit 1 while a channel fails), {@code --no-notify} delivers nothing, and
     * {@code queue status} names the failing channel in text and JSON.
     */
    @Test
    void theDaemonAndQueueStatusReportAFailingChannel() throws Exception {
        Path hook = script("hook.sh", "cat > /dev/null\nif [ -e \"$(dirname \"$0\")/fail\" ]; then echo 'pager: 503' >&2;"
                + " exit 4; fi\n");
        queue("log: true\ncommand: [\"" + hook + "\"]\n", 2);
        Files.writeString(home.resolve("fail"), "");

        CliRun quiet = CliRun.run(env, "queue", "daemon", "--once", "--no-notify");
        assertEquals(0, quiet.exitCode(), quiet.stderr());
        assertTrue(!quiet.stdout().contains("notify"), quiet.stdout());
        assertTrue(!Files.exists(nvidbHome().resolve("alerts.log")), "--no-notify delivers nothing");

        CliRun text = CliRun.run(env, "queue", "daemon", "--once");
        assertEquals(1, text.exitCode(), "a failing channel fails the pass: " + text.stdout() + text.stderr());
        assertTrue(text.stdout().contains(" notify: log 2 delivered; command 0 delivered, FAILING (alert 1: " + hook
                + " exited 4: pager: 503), 2 owed"), text.stdout());

        CliRun json = CliRun.run(env, "queue", "daemon", "--once", "--json");
        assertEquals(1, json.exitCode(), json.stderr());
        JsonNode pass = new ObjectMapper().readTree(json.stdout());
        assertEquals(false, pass.get("ok").asBoolean());
        JsonNode command = pass.get("notify").get("channels").get(1);
        assertEquals("command", command.get("channel").asText());
        assertEquals(2, command.get("owed").asInt());
        assertEquals(0, pass.get("notify").get("channels").get(0).get("delivered").asInt(), "the log delivered once, before");

        env.put("COLUMNS", "400");
        CliRun status = CliRun.run(env, "queue", "status", "--no-tick");
        assertEquals(0, status.exitCode(), status.stderr());
        assertTrue(status.stdout().matches("(?s).*\\! notify: command failing, 2 alerts owed \\([12] failed\\): "
                + java.util.regex.Pattern.quote(hook.toString()) + " exited 4: pager: 503; next try .*"), status.stdout());
        JsonNode statusJson = new ObjectMapper().readTree(CliRun.run(env, "queue", "status", "--no-tick", "--json").stdout());
        JsonNode failing = statusJson.get("notify").get("channels").get(1);
        assertEquals("command", failing.get("channel").asText());
        assertTrue(failing.get("failing").asInt() >= 1, failing.toString());
        assertTrue(failing.get("last_error").asText().endsWith("exited 4: pager: 503"), failing.toString());
        assertTrue(failing.get("next_attempt_at").isNumber(), failing.toString());
    }
}
