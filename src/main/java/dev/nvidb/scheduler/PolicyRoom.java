package dev.nvidb.scheduler;

/**
 * What a node's sharing policy still lets this queue's user take there this tick (docs/sharing.md):
 * GPUs and MiB under their caps, after every claim they hold on the node, of any of their queues.
 *
 * @param gpus GPUs more the user may hold there ({@link Integer#MAX_VALUE}: no cap)
 * @param mib  MiB more they may reserve there over all GPUs ({@link Long#MAX_VALUE}: no cap)
 * @param who   the cap in words, for a job it keeps waiting: "the node's policy caps alice at 2 GPUs
 *              there and she holds 2"; null when nothing is capped
 * @param ahead other users' waiting demand that the node's {@code share: fair} puts before this queue's
 *              user, furthest below their share first: the plan leaves room for the smallest job of
 *              each (where it fits now) before it places its own
 */
public record PolicyRoom(int gpus, long mib, String who, java.util.List<dev.nvidb.model.QueueDemand> ahead) {

    /** Nothing capped, nobody ahead. */
    public static final PolicyRoom NONE = new PolicyRoom(Integer.MAX_VALUE, Long.MAX_VALUE, null, java.util.List.of());

    public PolicyRoom {
        gpus = Math.max(0, gpus);
        mib = Math.max(0, mib);
        ahead = ahead == null ? java.util.List.of() : java.util.List.copyOf(ahead);
    }

    /** Whether anything is capped. */
    public boolean caps() {
        return gpus != Integer.MAX_VALUE || mib != Long.MAX_VALUE;
    }
}
