package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.engine.TickSettings;
import dev.nvidb.model.AlertKind;
import dev.nvidb.node.NodeDirectory;
import dev.nvidb.store.Alert;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Database;
import dev.nvidb.store.DeliveryStore;
import dev.nvidb.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alert delivery in a daemon pass (issue 8, item 1), on a fake clock with the real channels:
 * the log writes a real file, the hook is a real process. Exactly once per channel, a failing
 * hook retried with back-off and reported but never marked delivered, min_severity, the hook
 * with and without a shell, the log's mode and lines, and a claim left by a killed daemon.
 */
class DeliveringTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    /** A queue of this machine (its node ignored: no node is contacted) with {@code notify} as given. */
    final class Fixture implements AutoCloseable {

        final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
        final Path nvidbHome = home.resolve(".nvidb");
        final Queue queue;
        final QueueEngine engine;
        final Map<String, String> env = new HashMap<>();

        Fixture(String notify) throws IOException {
            Files.createDirectories(nvidbHome);
            Files.writeString(nvidbHome.resolve("queue.yml"), "queue:\n  local_node_name: here\n  backoff_max_seconds: 60\n"
                    + "  notify:\n" + notify.indent(4));
            env.put("HOME", home.toString());
            env.put("NVIDB_HOME", nvidbHome.toString());
            env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            NvidbConfig config = new ConfigLoader(NvidbHome.fromEnvironment(env, home.toString()), env).load();
            QueueNodes nodes = new QueueNodes(config, () -> new NodeDirectory(server -> {
                throw new AssertionError("no remote node in this fixture");
            }, Map.of()), "here");
            engine = new QueueEngine(Database.open(nvidbHome.resolve("queue.db")), nodes, clock,
                    new TickSettings(config.queue(), AgentScript.bundled(), Duration.ofSeconds(10)));
            queue = new Queue(engine, Duration.ofSeconds(10), duration -> clock.advance(duration),
                    config.home().alertsLog());
            queue.nodeAdmin().ignore("here", true);
        }

        long raise(long job, String severity) {
            return new AlertStore(engine.database()).raise(Alert.raise(clock.instant(), "job_failed:" + job + ":1",
                    AlertKind.JOB_FAILED, severity, job, "here", "job " + job + " failed (exit 1)", "Traceback\nline 2"))
                    .orElseThrow();
        }

        DaemonPass pass() {
            return queue.passes(env).pass();
        }

        NotifyPass.Channel channel(DaemonPass pass, String name) {
            assertNotNull(pass.delivery(), "the pass delivered: " + pass);
            return pass.delivery().channels().stream().filter(c -> c.channel().equals(name)).findFirst().orElseThrow();
        }

        List<String> logLines() throws IOException {
            Path log = nvidbHome.resolve("alerts.log");
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        }

        @Override
        public void close() {
            queue.close();
        }
    }

    /** A script that records what it received: its arguments, the alert id, stdin; exits 1 while {@code fail} exists. */
    private Path recorder(String name) throws IOException {
        Path script = home.resolve(name);
        Files.writeString(script, """
                #!/bin/sh
                input=$(cat)
                if [ -e "$(dirname "$0")/fail" ]; then echo "receiver down" >&2; exit 1; fi
                printf '%s|%s|%s\\n' "$NVIDB_ALERT_ID" "$*" "$input" >> "$(dirname "$0")/received"
                """);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private List<String> received() throws IOException {
        Path file = home.resolve("received");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private List<String> receivedIds() throws IOException {
        return received().stream().map(line -> line.substring(0, line.indexOf('|'))).toList();
    }

    @Test
    void eachAlertIsDeliveredOncePerChannelAndAPassLaterDeliversOnlyTheNewOnes() throws Exception {
        Path hook = recorder("hook.sh");
        try (Fixture fixture = new Fixture("log: true\ncommand: [\"" + hook + "\", \"--queue\", \"lab\"]\n")) {
            long one = fixture.raise(1, "error");
            long two = fixture.raise(2, "warning");
            DaemonPass first = fixture.pass();
            assertTrue(first.ok(), first.toString());
            assertEquals(2, fixture.channel(first, "log").delivered());
            assertEquals(2, fixture.channel(first, "command").delivered());
            assertEquals(0, fixture.channel(first, "command").owed());
            DaemonPass again = fixture.pass();
            assertEquals(0, again.delivery().delivered(), "nothing is delivered twice");
            long three = fixture.raise(3, "error");
            fixture.pass();
            assertEquals(List.of(String.valueOf(one), String.valueOf(two), String.valueOf(three)), receivedIds());
            assertEquals(3, fixture.logLines().size());
            assertTrue(received().get(0).startsWith(one + "|--queue lab|{"), received().get(0));
            JsonNode document = JSON.readTree(received().get(0).substring(received().get(0).indexOf("|{") + 1));
            assertEquals(one, document.get("id").asLong());
            assertEquals("job_failed", document.get("kind").asText());
            assertEquals("Traceback\nline 2", document.get("detail").asText());
        }
    }

    @Test
    void withNoNotifyNothingIsDeliveredAndTheAlertsStayOwed() throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            fixture.raise(1, "error");
            DaemonPass pass = fixture.queue.passes().pass();
            assertNull(pass.delivery());
            assertEquals(List.of(), fixture.logLines());
            assertEquals(1, fixture.pass().delivery().delivered());
        }
    }

    @Test
    void aFailingHookIsRetriedWithBackOffReportedAndNotMarkedDeliveredUntilItWorks() throws Exception {
        Path hook = recorder("hook.sh");
        Files.writeString(home.resolve("fail"), "");
        try (Fixture fixture = new Fixture("log: true\ncommand: \"" + hook + "\"\n")) {
            long one = fixture.raise(1, "error");
            fixture.raise(2, "error");
            DaemonPass first = fixture.pass();
            assertFalse(first.ok(), "a failed delivery fails the pass (--once exits 1)");
            NotifyPass.Channel command = fixture.channel(first, "command");
            assertEquals(1, command.failed(), "the channel stops for the pass at its first failure");
            assertEquals(0, command.delivered());
            assertEquals(2, command.owed());
            assertTrue(command.error().startsWith("alert " + one + ": " + hook + " exited 1: receiver down"),
                    command.error());
            assertEquals(fixture.clock.instant().plusSeconds(5), command.nextAttemptAt());
            assertEquals(2, fixture.channel(first, "log").delivered(), "the other channels go on");

            NotifyStatus.Channel status = fixture.queue.reading().status(false, 0).delivery().failing().get(0);
            assertEquals("command", status.channel());
            assertEquals(2, status.owed());
            assertEquals(1, status.failing());
            assertTrue(status.lastError().contains("receiver down"), status.lastError());

            fixture.clock.advanceSeconds(4);
            DaemonPass backingOff = fixture.pass();
            assertEquals(1, fixture.channel(backingOff, "command").failed(),
                    "alert 2 was never tried: it is tried now, and fails");
            fixture.clock.advanceSeconds(2);
            Instant start = fixture.clock.instant().minusSeconds(6);
            DaemonPass retried = fixture.pass();
            NotifyPass.Channel second = fixture.channel(retried, "command");
            assertEquals(1, second.failed(), "alert 1's back-off is over: tried again");
            assertTrue(second.error().startsWith("alert " + one + ": "), second.error());
            assertEquals(start.plusSeconds(9), second.nextAttemptAt(), "the earliest retry: alert 2's first back-off");
            fixture.clock.advanceSeconds(3);
            NotifyPass.Channel third = fixture.channel(fixture.pass(), "command");
            assertEquals(1, third.failed(), "alert 2 tried again");
            assertEquals(start.plusSeconds(16), third.nextAttemptAt(), "alert 1 waits 10 s after its second failure");
            fixture.clock.advanceSeconds(6);
            assertEquals(0, fixture.channel(fixture.pass(), "command").failed(), "both alerts are backing off");
            assertEquals(List.of(), received(), "nothing reached the receiver, and nothing is marked delivered");
            assertEquals(2, fixture.channel(fixture.pass(), "command").owed());

            Files.delete(home.resolve("fail"));
            fixture.clock.advanceSeconds(30);
            DaemonPass works = fixture.pass();
            assertTrue(works.ok(), works.toString());
            assertEquals(2, fixture.channel(works, "command").delivered());
            assertEquals(0, fixture.channel(works, "command").owed());
            assertEquals(List.of(), fixture.queue.reading().status(false, 0).delivery().failing());
            fixture.clock.advanceSeconds(600);
            fixture.pass();
            assertEquals(List.of(String.valueOf(one), String.valueOf(one + 1)), receivedIds(), "each once");
            assertEquals(2, fixture.logLines().size());
        }
    }

    @Test
    void alertsBelowMinSeverityAreDeliveredNowhereAndRecordedAsNotOwed() throws Exception {
        Path hook = recorder("hook.sh");
        try (Fixture fixture = new Fixture("min_severity: warning\ncommand: [\"" + hook + "\"]\n")) {
            fixture.raise(1, "info");
            long warning = fixture.raise(2, "warning");
            long error = fixture.raise(3, "error");
            DaemonPass pass = fixture.pass();
            assertEquals(2, fixture.channel(pass, "log").delivered());
            assertEquals(1, fixture.channel(pass, "log").notOwed());
            assertEquals(1, fixture.channel(pass, "command").notOwed());
            assertEquals(0, fixture.channel(pass, "command").owed());
            assertEquals(List.of(String.valueOf(warning), String.valueOf(error)), receivedIds());
            assertEquals(List.of(warning, error), fixture.logLines().stream()
                    .map(line -> readId(line)).toList());
            assertEquals(0, fixture.pass().delivery().channels().stream().mapToInt(NotifyPass.Channel::notOwed).sum(),
                    "recorded once");
        }
    }

    @Test
    void aCommandStringIsSplitIntoWordsWithoutAShell() throws Exception {
        Path hook = recorder("hook.sh");
        try (Fixture fixture = new Fixture("log: false\ncommand: '" + hook + " \"a  b\" $HOME `id` ;x'\n")) {
            long id = fixture.raise(1, "error");
            assertTrue(fixture.pass().ok());
            assertEquals(List.of(id + "|a  b $HOME `id` ;x"), received().stream()
                    .map(line -> line.substring(0, line.indexOf("|{"))).toList(), "the words arrive as written");
        }
    }

    @Test
    void withCommandShellTheStringRunsThroughBinSh() throws Exception {
        Path out = home.resolve("shell-out");
        try (Fixture fixture = new Fixture("log: false\ncommand_shell: true\ncommand: 'read line; echo \"$NVIDB_ALERT_ID"
                + " $NVIDB_ALERT_SEVERITY $line\" | cut -c1-12 > " + out + "'\n")) {
            long id = fixture.raise(1, "error");
            assertTrue(fixture.pass().ok());
            assertEquals((id + " error {\"schema_version\"").substring(0, 12), Files.readString(out).strip());
        }
    }

    @Test
    void aHookThatRunsPastItsTimeoutIsKilledAndCountsAsAFailure() throws Exception {
        Path marker = home.resolve("hung-pid");
        try (Fixture fixture = new Fixture("log: false\ncommand_shell: true\ncommand_timeout_seconds: 1\n"
                + "command: 'echo $$ > " + marker + "; exec sleep 60'\n")) {
            fixture.raise(1, "error");
            long started = System.nanoTime();
            DaemonPass pass = fixture.pass();
            long took = (System.nanoTime() - started) / 1_000_000;
            NotifyPass.Channel command = fixture.channel(pass, "command");
            assertEquals(1, command.failed());
            assertTrue(command.error().contains("ran longer than 1 s and was killed"), command.error());
            assertTrue(took < 20_000, "the pass went on after the timeout: " + took + " ms");
            long pid = Long.parseLong(Files.readString(marker).strip());
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the hook was killed");
            assertEquals(1, command.owed());
        }
    }

    @Test
    void theLogIsOwnerOnlyWithOneJsonLinePerAlert() throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            long one = fixture.raise(1, "error");
            long two = fixture.raise(2, "warning");
            fixture.pass();
            Path log = fixture.nvidbHome.resolve("alerts.log");
            assertEquals(Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                    java.nio.file.attribute.PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(log));
            List<String> lines = fixture.logLines();
            assertEquals(List.of(one, two), lines.stream().map(DeliveringTest::readId).toList());
            JsonNode first = JSON.readTree(lines.get(0));
            assertEquals(List.of("schema_version", "id", "at", "kind", "severity", "job_id", "node", "message", "detail"),
                    fieldNames(first));
            assertEquals(1767225600.0, first.get("at").asDouble());
            assertEquals("error", first.get("severity").asText());
            assertEquals(1, first.get("job_id").asLong());
            assertTrue(Files.readString(log).endsWith("}\n"));
            Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
            fixture.raise(3, "error");
            fixture.pass();
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(log),
                    "a log made readable by others is made owner-only again");
            assertEquals(3, fixture.logLines().size());
        }
    }

    @Test
    void aClaimLeftByAKilledDaemonIsTakenOverOnceItExpires() throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            long id = fixture.raise(1, "error");
            // Another daemon claimed it (for the log's 10 s + 5 s) and was killed before recording anything.
            Database database = fixture.engine.database();
            DeliveryStore store = new DeliveryStore();
            Instant now = fixture.clock.instant();
            database.write("start", conn -> store.start(conn, "log", now, now.minus(Duration.ofDays(1))));
            assertTrue(database.write("claim", conn -> store.claimNext(conn, "log", "killed-daemon", 1, false, now,
                    Duration.ofSeconds(15), Duration.ofSeconds(60))).isPresent());
            DaemonPass held = fixture.pass();
            assertEquals(0, fixture.channel(held, "log").delivered(), "a live claim is left alone");
            assertEquals(1, fixture.channel(held, "log").owed());
            fixture.clock.advanceSeconds(15);
            DaemonPass taken = fixture.pass();
            assertEquals(1, fixture.channel(taken, "log").delivered(), "the expired claim is taken over");
            assertEquals(List.of(id), fixture.logLines().stream().map(DeliveringTest::readId).toList());
        }
    }

    @Test
    void aLogLineAKilledDaemonWroteBeforeRecordingItIsNotWrittenAgainByTheDaemonThatTakesItsClaimOver()
            throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            long id = fixture.raise(1, "error");
            long next = fixture.raise(2, "error");
            // Another daemon claimed the first alert, appended its line and was SIGKILLed before recording it
            // (the window FaultCampaignIT's daemon kills can hit: before, the takeover appended the line again).
            Database database = fixture.engine.database();
            DeliveryStore store = new DeliveryStore();
            Instant now = fixture.clock.instant();
            database.write("start", conn -> store.start(conn, "log", now, now.minus(Duration.ofDays(1))));
            Alert claimed = database.write("claim", conn -> store.claimNext(conn, "log", "killed-daemon", 1, false, now,
                    Duration.ofSeconds(15), Duration.ofSeconds(60))).orElseThrow().alert();
            assertEquals(id, claimed.id());
            new dev.nvidb.alerts.LogChannel(fixture.nvidbHome.resolve("alerts.log"))
                    .deliver(claimed, dev.nvidb.alerts.AlertDocument.json(claimed));
            fixture.clock.advanceSeconds(15);
            DaemonPass taken = fixture.pass();
            assertEquals(2, fixture.channel(taken, "log").delivered(), "both recorded delivered");
            assertEquals(List.of(id, next), fixture.logLines().stream().map(DeliveringTest::readId).toList(),
                    "each alert's line once");
        }
    }

    @Test
    void aClaimFromAClockFarAheadDoesNotHoldTheAlertBack() throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            fixture.raise(1, "error");
            Database database = fixture.engine.database();
            DeliveryStore store = new DeliveryStore();
            Instant ahead = fixture.clock.instant().plus(Duration.ofHours(2));
            database.write("start", conn -> store.start(conn, "log", ahead, ahead.minus(Duration.ofDays(1))));
            database.write("claim", conn -> store.claimNext(conn, "log", "daemon-with-a-fast-clock", 1, false, ahead,
                    Duration.ofSeconds(15), Duration.ofSeconds(60)));
            assertEquals(1, fixture.channel(fixture.pass(), "log").delivered());
        }
    }

    @Test
    void acknowledgedBeforeDeliveryIsLoggedButNotPushed() throws Exception {
        Path hook = recorder("hook.sh");
        try (Fixture fixture = new Fixture("log: true\ncommand: [\"" + hook + "\"]\n")) {
            long seen = fixture.raise(1, "error");
            long open = fixture.raise(2, "error");
            fixture.queue.reading().acknowledge(seen);
            DaemonPass pass = fixture.pass();
            assertEquals(2, fixture.channel(pass, "log").delivered(), "the log is the record of every alert");
            assertEquals(1, fixture.channel(pass, "command").notOwed());
            assertEquals(List.of(String.valueOf(open)), receivedIds());
        }
    }

    @Test
    void onAChannelsFirstPassOpenAlertsOlderThanADayAreABacklogThatIsReportedNotDelivered() throws Exception {
        try (Fixture fixture = new Fixture("log: true\n")) {
            fixture.raise(1, "error");
            fixture.raise(2, "error");
            fixture.clock.advance(Duration.ofHours(25));
            long fresh = fixture.raise(3, "error");
            DaemonPass first = fixture.pass();
            NotifyPass.Channel log = fixture.channel(first, "log");
            assertEquals(2, log.backlog());
            assertEquals(1, log.delivered());
            assertEquals(List.of(fresh), fixture.logLines().stream().map(DeliveringTest::readId).toList());
            fixture.clock.advance(Duration.ofHours(48));
            long later = fixture.raise(4, "error");
            fixture.clock.advance(Duration.ofHours(48));
            NotifyPass.Channel second = fixture.channel(fixture.pass(), "log");
            assertEquals(0, second.backlog(), "only the first pass has a backlog");
            assertEquals(1, second.delivered(), "an alert raised after the channel began is owed however old");
            assertEquals(List.of(fresh, later), fixture.logLines().stream().map(DeliveringTest::readId).toList());
        }
    }

    @Test
    void aDesktopWithoutNotifySendOrOsascriptIsAReportedFailureAndANotifierOnPathIsUsed() throws Exception {
        try (Fixture fixture = new Fixture("log: false\ndesktop: true\n")) {
            fixture.env.put("PATH", home.resolve("bin").toString());
            long id = fixture.raise(1, "error");
            NotifyPass.Channel missing = fixture.channel(fixture.pass(), "desktop");
            assertEquals(1, missing.failed());
            assertTrue(missing.error().contains("no notify-send or osascript on PATH"), missing.error());
            Files.createDirectories(home.resolve("bin"));
            Path notifySend = home.resolve("bin/notify-send");
            Files.writeString(notifySend, "#!/bin/sh\nprintf '%s\\n' \"$NVIDB_ALERT_ID\" \"$@\" > \"$(dirname \"$0\")/shown\"\n");
            Files.setPosixFilePermissions(notifySend, PosixFilePermissions.fromString("rwx------"));
            fixture.clock.advanceSeconds(5);
            assertEquals(1, fixture.channel(fixture.pass(), "desktop").delivered());
            assertEquals(List.of(String.valueOf(id), "--app-name=nvidb", "--urgency=critical", "nvidb: job_failed (job 1)",
                    "job 1 failed (exit 1)"), Files.readAllLines(home.resolve("bin/shown")));
        }
    }

    private static long readId(String line) {
        try {
            return JSON.readTree(line).get("id").asLong();
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
