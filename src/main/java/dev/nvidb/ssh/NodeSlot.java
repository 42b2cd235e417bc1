package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The one connection a process keeps to one node. Callers that arrive while a connection is
 * being made wait for that same attempt instead of starting their own; a failed or dropped
 * connection is replaced by the next caller. Only this node's callers ever wait here.
 */
final class NodeSlot {

    /** A connection handed to a caller, and whether this caller's request opened it. */
    record Lease(Connection connection, boolean fresh) {
    }

    private CompletableFuture<Connection> attempt;

    Lease acquire(Supplier<Connection> connect) {
        CompletableFuture<Connection> current;
        CompletableFuture<Connection> mine = null;
        synchronized (this) {
            current = attempt;
            if (current == null || isDead(current)) {
                mine = new CompletableFuture<>();
                attempt = mine;
                current = mine;
            }
        }
        if (mine != null) {
            try {
                mine.complete(connect.get());
            } catch (RuntimeException e) {
                mine.completeExceptionally(e);
            }
        }
        return new Lease(join(current, mine != null), mine != null);
    }

    /** Forgets {@code connection} (if it is still this slot's) and closes it. */
    void invalidate(Connection connection) {
        synchronized (this) {
            if (attempt != null && attempt.isDone() && !attempt.isCompletedExceptionally()
                    && attempt.join() == connection) {
                attempt = null;
            }
        }
        connection.close();
    }

    void close() {
        CompletableFuture<Connection> last;
        synchronized (this) {
            last = attempt;
            attempt = null;
        }
        if (last != null && last.isDone() && !last.isCompletedExceptionally()) {
            last.join().close();
        }
    }

    private static boolean isDead(CompletableFuture<Connection> attempt) {
        return attempt.isDone() && (attempt.isCompletedExceptionally() || !attempt.join().isOpen());
    }

    private static Connection join(CompletableFuture<Connection> attempt, boolean own) {
        try {
            return attempt.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SshException failure) {
                // Waiters get their own copy so each thread's stack trace is its own.
                throw own ? failure : new SshException(failure.getMessage(), failure.hint().orElse(null), failure);
            }
            throw new SshException("unexpected failure while connecting: " + cause, null, cause);
        }
    }
}
