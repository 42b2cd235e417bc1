package dev.nvidb.model;

import java.util.Objects;

/**
 * What one queue published on a node as waiting (docs/sharing.md): its ready GPU jobs that could
 * run there, the smallest of them, and how long the oldest has waited. Read by every queue's
 * probe; the node's fair share gives a freed GPU to the user furthest below their share.
 *
 * @param user      the login name of the queue's owner
 * @param uid       the owner's uid (the demand file's owner, checked by the agent)
 * @param queueId   the queue's random id
 * @param queueName the queue's name, or null
 * @param waiting   ready GPU jobs waiting for this node
 * @param gpus      GPUs the smallest of them needs
 * @param mib       MiB per GPU it needs
 * @param exclusive whether it needs whole cards
 * @param oldestAt  when the oldest was submitted, seconds since the epoch
 * @param ownQueue  whether it is the asking queue's own
 */
public record QueueDemand(String user, int uid, String queueId, String queueName, int waiting, int gpus, long mib,
                          boolean exclusive, long oldestAt, boolean ownQueue) {

    public QueueDemand {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(queueId, "queueId");
    }

    /** "bob waits with 3 GPU jobs (smallest 1 x 16.0G) in queue desk", as views name a demand. */
    public String describe() {
        String queue = queueName != null ? queueName : queueId.substring(0, Math.min(8, queueId.length()));
        String smallest = exclusive ? gpus + " whole card" + (gpus == 1 ? "" : "s")
                : String.format(java.util.Locale.ROOT, "%d x %.1fG", gpus, mib / 1024.0);
        return user + " waits with " + waiting + " GPU job" + (waiting == 1 ? "" : "s") + " (smallest " + smallest
                + ") in queue " + queue;
    }
}
