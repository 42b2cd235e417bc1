package dev.nvidb.app;

import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.NvidbConfig;

/**
 * After {@code nvidb add}, {@code nvidb import} or {@code nvidb clean}: with no servers, the
 * queue runs jobs on this machine; once config.yml has one (and queue.yml names no servers of
 * its own), the queue runs them on the servers only, unless {@code queue.include_local} is set.
 * Say so when a command changes that, so the next {@code job submit} does not wait on a server
 * unexplained, nor start here unexpectedly.
 */
public final class QueueNodesNotice {

    private QueueNodesNotice() {
    }

    /** Prints the notice on stderr when {@code before} ran the queue here and the config now does not. */
    public static void afterAdding(Wiring.Front context, NvidbConfig before) {
        if (before.hasQueueServers() || before.queue().includeLocal()) {
            return;
        }
        NvidbConfig after = new ConfigLoader(before.home(), context.environment()).load();
        String line = notice(before, after);
        if (line != null) {
            context.err().println(line);
        }
    }

    /**
     * After {@code nvidb clean}: prints on stderr when {@code before} ran the queue's jobs on
     * servers only and the config left none, so the queue now runs them on this machine.
     */
    public static void afterRemoving(Wiring.Front context, NvidbConfig before) {
        if (!before.hasQueueServers() || before.queue().includeLocal()) {
            return;
        }
        NvidbConfig after = new ConfigLoader(before.home(), context.environment()).load();
        if (!after.hasQueueServers()) {
            context.err().println("note: the queue has no servers left and now runs jobs on this machine");
        }
    }

    /** The notice for a change from {@code before} to {@code after}, or null when the queue's nodes did not move. */
    public static String notice(NvidbConfig before, NvidbConfig after) {
        boolean localBefore = before.queue().includeLocal() || !before.hasQueueServers();
        boolean localAfter = after.queue().includeLocal() || !after.hasQueueServers();
        if (!localBefore || localAfter) {
            return null;
        }
        return "note: the queue now runs jobs on the configured servers only, no longer on this machine;"
                + " to keep this machine as a queue node, set 'include_local: true' under 'queue:' in "
                + after.home().display(after.home().queueYml());
    }
}
