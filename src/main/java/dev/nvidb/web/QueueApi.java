package dev.nvidb.web;

import dev.nvidb.error.NvidbException;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.JsonQueue;
import dev.nvidb.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * {@code /api/queue}: the queue's nodes, jobs and open alerts as {@code nvidb queue status --json}
 * prints them, read through the queue's use cases without a tick (the page reads; it never
 * contacts a node or changes the queue). A queue not created yet is a 404 that says how to make one.
 */
public final class QueueApi implements AutoCloseable {

    /** How many finished jobs the page lists besides the live ones. */
    static final int RECENT = 20;

    private final Path file;
    private final Supplier<Queue> open;
    private final Supplier<JsonKeeper> keeper;
    private Queue queue;

    /**
     * @param file   the queue database (only looked at: opened once it exists)
     * @param open   opens the queue on that file, the way every queue command does
     * @param keeper the keeper's state for the document, null while none is installed
     */
    public QueueApi(Path file, Supplier<Queue> open, Supplier<JsonKeeper> keeper) {
        this.file = file;
        this.open = open;
        this.keeper = keeper;
    }

    synchronized JsonQueue.Status read() {
        if (queue == null) {
            if (!Files.exists(file)) {
                throw ApiException.notFound("no queue at " + file + " yet; 'nvidb job submit' creates it");
            }
            try {
                queue = open.get();
            } catch (NvidbException e) {
                throw new ApiException(409, e.getMessage());
            }
        }
        return JsonQueue.status(queue.reading().status(false, RECENT), keeper.get());
    }

    @Override
    public synchronized void close() {
        if (queue != null) {
            queue.close();
            queue = null;
        }
    }
}
