package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for a state by asking again until a deadline: no sleeping for a guessed time. */
final class Polling {

    private static final long POLL_NANOS = Duration.ofMillis(20).toNanos();

    private Polling() {
    }

    /** Asks {@code value} until {@code done} holds for its answer, and returns that answer. */
    static <T> T until(Duration limit, Supplier<T> value, Predicate<T> done, String what) {
        long deadline = System.nanoTime() + limit.toNanos();
        T last = value.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                fail("gave up waiting (" + limit.toSeconds() + " s) for " + what + "; last: " + last);
            }
            LockSupport.parkNanos(POLL_NANOS);
            last = value.get();
        }
        return last;
    }
}
