package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.node.LocalShell;
import dev.nvidb.node.Node;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Signals run on the owning node's shell, after checking the pid still names the process shown. */
class ProcessSignalsTest {

    private final Node local = new Node("here", true, new LocalShell("here", Map.of()));
    private final ProcessSignals signals = new ProcessSignals(Duration.ofSeconds(10));

    @Test
    void termEndsTheProcess() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "600").start();
        try {
            ProcessSignals.Outcome outcome = signals.send(local, sleep.pid(), "sleep", "TERM");
            assertTrue(outcome.sent(), outcome.message());
            assertTrue(sleep.waitFor(10, TimeUnit.SECONDS), "the process ended");
        } finally {
            sleep.destroyForcibly();
        }
    }

    @Test
    void aPidThatNowBelongsToAnotherProgramIsNotSignalled() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "600").start();
        try {
            ProcessSignals.Outcome outcome = signals.send(local, sleep.pid(), "python", "KILL");
            assertFalse(outcome.sent());
            assertTrue(outcome.message().contains("now belongs to sleep"), outcome.message());
            assertTrue(sleep.isAlive());
        } finally {
            sleep.destroyForcibly();
        }
    }

    @Test
    void aGoneProcessIsReportedNotThrown() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        ProcessSignals.Outcome outcome = signals.send(local, gone.pid(), "true", "TERM");
        assertFalse(outcome.sent());
        assertTrue(outcome.message().contains("failed"), outcome.message());
    }

    @Test
    void onlyTheThreeSignalsAreSent() {
        assertFalse(signals.send(local, 12345, null, "HUP; rm -rf /").sent());
        assertFalse(signals.send(local, 1, null, "TERM").sent());
    }
}
