package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.daemon.DaemonServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon started while something else serves the database's socket (a submit ticker lingering
 * after a burst) takes the socket over as soon as it is free, not at its next pass (its interval
 * is an hour here): commands would otherwise tick for themselves all that while.
 */
class DaemonTakeoverTest {

    @TempDir
    Path home;

    @Test
    void aDaemonTakesTheSocketOverWithinASecondOfItsRelease() throws Exception {
        Map<String, String> env = new HashMap<>(CliRun.localQueue(home));
        env.put("PATH", System.getenv("PATH"));
        Path database = home.resolve(".nvidb/queue.db");
        Path socket = home.resolve(".nvidb/queue.db.daemon");
        assertTrue(CliRun.run(env, "queue", "status", "--no-tick").exitCode() == 0); // creates the database
        DaemonServer ticker = DaemonServer.start(database).orElseThrow();
        Process daemon = null;
        try {
            daemon = ClientProcess.daemon(home, env); // it finds the socket served: it runs without it
            ticker.close(Duration.ZERO);
            long released = System.nanoTime();
            while (!Files.exists(socket)) {
                // It retries every half second; an hour would pass before its next pass.
                assertTrue(System.nanoTime() - released < Duration.ofSeconds(30).toNanos(),
                        "the daemon did not take the socket over: " + ClientProcess.read(home.resolve("daemon.log")));
                Thread.sleep(20); // a poll with a deadline
            }
        } finally {
            ticker.close();
            if (daemon != null) {
                daemon.destroyForcibly().waitFor();
            }
        }
    }
}
