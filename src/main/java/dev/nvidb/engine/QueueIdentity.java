package dev.nvidb.engine;

import dev.nvidb.store.MetaStore;
import dev.nvidb.store.SqlWork;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A short random name for this queue database, made once and kept in its meta table. Job
 * directories on the nodes live under it ({@code <job_root>/<queue>/<job>/<attempt>}), so two
 * queues that share a node (a laptop's and a queue host's, or a test's) never meet in one
 * directory.
 */
final class QueueIdentity {

    static final String KEY = "queue_id";

    private QueueIdentity() {
    }

    /** The id, created inside the caller's write transaction when the database has none yet. */
    static SqlWork<String> of(MetaStore meta) {
        return connection -> {
            java.util.Optional<String> existing = meta.get(connection, KEY);
            if (existing.isPresent()) {
                return existing.get();
            }
            byte[] bytes = new byte[4];
            new SecureRandom().nextBytes(bytes);
            String id = "q" + HexFormat.of().formatHex(bytes);
            meta.put(connection, KEY, id);
            return id;
        };
    }
}
