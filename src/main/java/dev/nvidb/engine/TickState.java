package dev.nvidb.engine;

import dev.nvidb.model.JobStatus;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.StoredJob;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The database as a tick starts: the active jobs, what is known of each node, and the
 * processes still owed a kill.
 */
record TickState(List<StoredJob> active, Map<String, NodeRecord> nodes, List<PendingReap> reaps) {

    List<StoredJob> runningOn(String node) {
        return active.stream().filter(job -> job.job().status() instanceof JobStatus.Running running
                && running.assignment().node().equals(node)).toList();
    }

    List<PendingReap> reapsOn(String node) {
        return reaps.stream().filter(reap -> reap.target().node().equals(node)).toList();
    }

    Optional<NodeRecord> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }
}
