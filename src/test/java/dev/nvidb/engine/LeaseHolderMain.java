package dev.nvidb.engine;

import dev.nvidb.store.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A separate process for {@link DeadHolderTest}: a client that takes the tick lease through the
 * real {@link TickGuard} (recording itself as {@code nvidb queue tick}), says {@code holding}
 * and then ticks forever, renewing its lease, until it is killed.
 */
public final class LeaseHolderMain {

    private LeaseHolderMain() {
    }

    public static void main(String[] args) {
        Duration lease = Duration.ofSeconds(Long.parseLong(args[1]));
        try (Database database = Database.open(Path.of(args[0]))) {
            TickGuard guard = new TickGuard(database, Clock.systemUTC(), lease, Duration.ZERO, Duration.ofSeconds(1),
                    new TickClient("nvidb queue tick", null));
            guard.run(TickMode.FORCE, () -> {
                System.out.println("holding");
                System.out.flush();
                while (true) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return null;
                    }
                }
            });
        }
    }
}
