package dev.nvidb.queue;

import dev.nvidb.model.NodeSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * A queue node as status commands show it: whether it answers, what it last reported, and
 * its GPUs with their budgets.
 *
 * @param name         the node
 * @param status       {@code up}, {@code down} (its last probe failed) or {@code unknown} (never probed)
 * @param drained      no new placements
 * @param ignored      not probed, not scheduled
 * @param lastSeenAt   its last answer, or null
 * @param lastError    why its last probe failed, or null
 * @param failures     consecutive failed probes
 * @param backoffUntil not contacted before this time, or null
 * @param snapshot     its last answer's host facts and GPUs, or null
 * @param gpus         its GPUs with budgets (from the last answer)
 * @param runningJobs  queue jobs running there
 */
public record NodeView(String name, String status, boolean drained, boolean ignored, Instant lastSeenAt,
                       String lastError, int failures, Instant backoffUntil, NodeSnapshot snapshot, List<GpuView> gpus,
                       int runningJobs, String slurm) {

    /** A node that is not a Slurm cluster. */
    public NodeView(String name, String status, boolean drained, boolean ignored, Instant lastSeenAt, String lastError,
                    int failures, Instant backoffUntil, NodeSnapshot snapshot, List<GpuView> gpus, int runningJobs) {
        this(name, status, drained, ignored, lastSeenAt, lastError, failures, backoffUntil, snapshot, gpus, runningJobs,
                null);
    }
}
