package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.ClientProcess.Client;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A burst of submits with no daemon: the first starts the submit ticker (through a launcher, as
 * bin/nvidb does), and while the ticker lingers it serves the daemon's socket, so the next submits
 * are handed to it instead of each starting a JVM of its own; every job still runs, and the
 * ticker, its socket with it, goes once the burst is over.
 */
class TickerHandoffTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path home;

    @AfterEach
    void jobsGone() throws Exception {
        SubmitExitCodeTest.awaitDetachedJobsUnder(home);
    }

    @Test
    void submitsAfterTheFirstAreHandedToTheLingeringTickerAndAllRun() throws Exception {
        Map<String, String> env = new HashMap<>(CliRun.localQueue(home));
        env.put("PATH", System.getenv("PATH"));
        Path launcher = home.resolve("nvidb");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + ClientProcess.java() + "' -cp '"
                + System.getProperty("java.class.path") + "' dev.nvidb.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        env.put(SubmitTicker.LAUNCHER, launcher.toString());
        Path socket = home.resolve(".nvidb/queue.db.daemon"); // the ticker serves it while it lingers

        Client first = ClientProcess.run(home, "submit-1", env, "job", "submit", "--json", "--gpus", "0", "--", "true");
        assertEquals(0, first.code(), first.err());
        assertFalse(first.handedOver(), "nothing to hand the first submit to");
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!Files.exists(socket)) {
            assertTrue(System.nanoTime() < deadline, "the submit ticker never opened its socket");
            Thread.sleep(20); // a poll with a deadline
        }

        int handed = 0;
        for (int i = 2; i <= 4; i++) {
            Client next = ClientProcess.run(home, "submit-" + i, env, "job", "submit", "--json", "--gpus", "0", "--", "true");
            assertEquals(0, next.code(), next.err());
            assertEquals(i, JSON.readTree(next.out()).path("job").path("id").asLong(), next.out());
            handed += next.handedOver() ? 1 : 0;
        }
        // Each submit renews the ticker's linger (3 s), and a client JVM starts in well under that.
        assertEquals(3, handed, "the submits after the first went to the ticker");

        awaitEveryJobCompletedAndTheTickerGone(env, 4, socket, deadline);
    }

    /** Every one of {@code count} jobs ends completed, and the ticker, its socket with it, goes. */
    private static void awaitEveryJobCompletedAndTheTickerGone(Map<String, String> env, int count, Path socket,
                                                               long deadline) throws Exception {
        while (true) {
            // (A read ticks when the last tick is old: the ticker may be gone before the last job ends.)
            JsonNode jobs = JSON.readTree(CliRun.run(env, "job", "ls", "--json").stdout()).path("jobs");
            long completed = 0;
            for (JsonNode job : jobs) {
                completed += job.path("state").asText().equals("completed") ? 1 : 0;
            }
            if (completed == count) {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "not every job ran: " + jobs);
            Thread.sleep(50); // a poll with a deadline
        }
        while (Files.exists(socket)) {
            assertTrue(System.nanoTime() < deadline, "the ticker never went");
            Thread.sleep(50); // a poll with a deadline
        }
    }

    @Test
    void aSubmitMadeWhileTheTickerStillStartsWaitsForItAndIsHandedOver() throws Exception {
        Map<String, String> env = new HashMap<>(CliRun.localQueue(home));
        env.put("PATH", System.getenv("PATH"));
        // A ticker that takes 1.5 s to start (a busy machine): the second submit comes long before it serves.
        Path launcher = home.resolve("nvidb");
        Files.writeString(launcher, "#!/bin/sh\ncase \"$*\" in *--background*) sleep 1.5 ;; esac\nexec '"
                + ClientProcess.java() + "' -cp '" + System.getProperty("java.class.path") + "' dev.nvidb.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        env.put(SubmitTicker.LAUNCHER, launcher.toString());
        Path socket = home.resolve(".nvidb/queue.db.daemon");
        Path marker = home.resolve(".nvidb/queue.db.ticker-starting");

        Client first = ClientProcess.run(home, "submit-1", env, "job", "submit", "--json", "--gpus", "0", "--", "true");
        assertEquals(0, first.code(), first.err());
        assertTrue(Files.exists(marker), "the submit that starts the ticker marks it starting");
        assertFalse(Files.exists(socket), "the ticker is still starting");

        Client second = ClientProcess.run(home, "submit-2", env, "job", "submit", "--json", "--gpus", "0", "--", "true");
        assertEquals(0, second.code(), second.err());
        assertEquals(2, JSON.readTree(second.out()).path("job").path("id").asLong(), second.out());
        assertTrue(second.handedOver(), "the second submit waited for the starting ticker and went to it");
        assertFalse(Files.exists(marker), "the ticker took its marker away once it served");

        awaitEveryJobCompletedAndTheTickerGone(env, 2, socket, System.nanoTime() + LIMIT.toNanos());
    }
}
