package dev.nvidb.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One live claim a queue left on a node at launch (docs/sharing.md): who reserved which GPUs for
 * which job, and what that job uses there now.
 *
 * @param user      the login name of the claim's owner
 * @param uid       the owner's uid (the claim file's owner, checked by the agent)
 * @param queueId   the random id of the queue that launched the job
 * @param queueName the queue's name as its owner set it (the queue host by default), or null
 * @param jobId     the job's id in that queue
 * @param gpuUuids  the GPUs the claim holds
 * @param mib       MiB reserved on each of them
 * @param exclusive whether the job holds its GPUs whole ({@code --exclusive})
 * @param usedMib   what the job's processes hold on each GPU now, by UUID
 * @param ownQueue  whether the claim is the asking queue's own (the agent compares the queue ids); a
 *                  monitor's probe, which names no queue, owns none
 * @param hold      not a file on the node but the asking queue's own yielding under the node's
 *                  {@code share: fair}: room it leaves for another user's waiting job ({@code jobId} 0)
 */
public record GpuClaim(String user, int uid, String queueId, String queueName, long jobId, List<String> gpuUuids,
                       long mib, boolean exclusive, Map<String, Long> usedMib, boolean ownQueue, boolean hold) {

    public GpuClaim {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(queueId, "queueId");
        gpuUuids = List.copyOf(gpuUuids);
        usedMib = Map.copyOf(usedMib);
    }

    /** A claim a queue left on the node. */
    public GpuClaim(String user, int uid, String queueId, String queueName, long jobId, List<String> gpuUuids,
                    long mib, boolean exclusive, Map<String, Long> usedMib, boolean ownQueue) {
        this(user, uid, queueId, queueName, jobId, gpuUuids, mib, exclusive, usedMib, ownQueue, false);
    }

    /** Room left on one GPU for another user's waiting job, which the node's fair share puts first. */
    public static GpuClaim heldFor(QueueDemand waiting, String uuid, long mib) {
        return new GpuClaim(waiting.user(), waiting.uid(), waiting.queueId(), waiting.queueName(), 0, List.of(uuid),
                mib, waiting.exclusive(), Map.of(), false, true);
    }

    /** Whether the claim holds the GPU with this UUID. */
    public boolean holds(String uuid) {
        return uuid != null && gpuUuids.contains(uuid);
    }

    /** What the claim counts for on one GPU: the larger of its reservation and its job's use there. */
    public long chargeOn(String uuid) {
        return Math.max(mib, usedMib.getOrDefault(uuid, 0L));
    }

    /** What the claim reserves on one GPU beyond what its job uses there yet. */
    public long unusedOn(String uuid) {
        return Math.max(0, mib - usedMib.getOrDefault(uuid, 0L));
    }

    /** "alice: 16.0G reserved, job 12 of queue laptop", as every view names a claim. */
    public String describe(String uuid) {
        String queue = queueName != null ? queueName : queueId.substring(0, Math.min(8, queueId.length()));
        if (hold) {
            return user + ": " + (exclusive ? "the whole card" : String.format(java.util.Locale.ROOT, "%.1fG", mib / 1024.0))
                    + " held for a waiting job of queue " + queue + " (node policy share: fair; "
                    + user + " is further below their share)";
        }
        String what = exclusive ? "the whole card" : String.format(java.util.Locale.ROOT, "%.1fG reserved",
                (uuid == null ? mib : chargeOn(uuid)) / 1024.0);
        return user + ": " + what + ", job " + jobId + " of queue " + queue;
    }
}
