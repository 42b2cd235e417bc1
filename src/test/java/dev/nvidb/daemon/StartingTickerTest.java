package dev.nvidb.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that may be handed to the daemon, right after a submit started the submit ticker
 * and before the ticker serves the socket: it waits while the ticker's marker says the ticker is
 * starting, and only then, and never longer than the window from the ticker's start.
 */
class StartingTickerTest {

    private static final long LONG_WINDOW = 60_000;

    @TempDir
    Path home;

    private File marker() {
        return home.resolve("queue.db.ticker-starting").toFile();
    }

    private File socket() {
        return home.resolve("queue.db.daemon").toFile();
    }

    @Test
    void withoutAMarkerNothingIsAwaited() {
        assertFalse(Handoff.awaitStartingTicker(marker(), socket(), LONG_WINDOW));
    }

    @Test
    void theTickerRemovingItsMarkerOnceItListensLetsTheCommandGoToTheSocket() throws Exception {
        Files.createFile(marker().toPath());
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(
                () -> Handoff.awaitStartingTicker(marker(), socket(), LONG_WINDOW));
        Thread.sleep(200); // the ticker still starting
        assertFalse(waited.isDone(), "the command waits while the ticker starts");
        Files.createFile(socket().toPath());
        Thread.sleep(100); // bound, not yet listening: the marker is still there
        assertFalse(waited.isDone(), "a socket file alone is not a ticker ready to take the line");
        Files.delete(marker().toPath());
        assertTrue(waited.get(30, TimeUnit.SECONDS), "ready: the line goes to the socket");
    }

    @Test
    void aTickerThatEndsWithoutServingSendsTheCommandItsOwnWay() throws Exception {
        Files.createFile(marker().toPath());
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(
                () -> Handoff.awaitStartingTicker(marker(), socket(), LONG_WINDOW));
        Thread.sleep(100); // the ticker starting
        assertFalse(waited.isDone(), "the command waits while the ticker starts");
        Files.delete(marker().toPath());
        assertFalse(waited.get(30, TimeUnit.SECONDS), "no socket: the command runs itself");
    }

    @Test
    void aTickerSlowerThanTheWindowIsNotWaitedForLonger() throws Exception {
        Files.createFile(marker().toPath());
        assertFalse(Handoff.awaitStartingTicker(marker(), socket(), 300), "the window ran out");
        assertTrue(marker().exists(), "a fresh marker is the ticker's to remove");
    }

    @Test
    void aMarkerDatedInTheFutureIsWaitedForNoLongerThanTheWindowFromNow() throws Exception {
        Files.createFile(marker().toPath());
        assertTrue(marker().setLastModified(System.currentTimeMillis() + 3_600_000)); // a clock set back since
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(
                () -> Handoff.awaitStartingTicker(marker(), socket(), 300));
        assertFalse(waited.get(30, TimeUnit.SECONDS), "the window runs from now, not from the marker's future time");
    }

    @Test
    void aMarkerOlderThanTheWindowIsLeftByATickerThatDiedAndIsRemoved() throws Exception {
        Files.createFile(marker().toPath());
        assertTrue(marker().setLastModified(System.currentTimeMillis() - 10_000));
        assertFalse(Handoff.awaitStartingTicker(marker(), socket(), 3_000));
        assertFalse(marker().exists(), "a stale marker goes, so later commands do not look at it again");
    }
}
