package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.LaunchRequest;
import dev.nvidb.config.NodePolicy;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.scheduler.GpuCapacity;
import dev.nvidb.scheduler.NodeCapacity;
import dev.nvidb.scheduler.PolicyRoom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A node's sharing policy applied to what this queue may take there (docs/sharing.md): the caps of
 * {@code policy.yml} on its user, counted over every claim the user holds on the node from any of
 * their queues, and under {@code share: fair} the other users whose waiting jobs go first. What each
 * queue publishes as waiting is built here too. Pure: the node's claims as its probe read them in,
 * the capacity the plan uses out.
 */
public final class NodeShares {

    private NodeShares() {
    }

    /**
     * The capacity this queue plans with on the node: its policy's room for the queue's user, and the
     * users ahead of them under fair share when {@code waitingHere} (the queue's ready GPU jobs that
     * could run there) is not empty.
     */
    public static NodeCapacity apply(NodeCapacity capacity, NodeClaims claims, List<Job> waitingHere) {
        return apply(capacity, claims, () -> waitingHere);
    }

    /** As above, the waiting jobs gathered only for a node whose policy is {@code share: fair}. */
    public static NodeCapacity apply(NodeCapacity capacity, NodeClaims claims,
                                     java.util.function.Supplier<List<Job>> waiting) {
        Optional<NodePolicy> parsed = NodePolicy.of(claims);
        if (parsed.isEmpty() || claims.me() == null) {
            return capacity;
        }
        NodePolicy policy = parsed.get();
        NodeClaims.User me = claims.me();
        NodePolicy.Rule rule = policy.ruleFor(me.name());
        int roomGpus = Integer.MAX_VALUE;
        long roomMib = Long.MAX_VALUE;
        String who = null;
        if (rule.caps()) {
            int heldGpus = 0;
            long heldMib = 0;
            for (GpuClaim claim : claims.live()) {
                if (claim.uid() == me.uid()) {
                    heldGpus += claim.gpuUuids().size();
                    heldMib += claimMib(claim, capacity);
                }
            }
            List<String> limits = new ArrayList<>();
            if (rule.maxGpus() != null) {
                roomGpus = Math.max(0, rule.maxGpus() - heldGpus);
                limits.add(rule.maxGpus() + " GPU" + (rule.maxGpus() == 1 ? "" : "s"));
            }
            if (rule.maxMib() != null) {
                roomMib = Math.max(0, rule.maxMib() - heldMib);
                limits.add(gib(rule.maxMib()));
            }
            who = "the node's policy caps " + me.name() + " at " + String.join(" and ", limits) + " there and they hold "
                    + heldGpus + " GPU" + (heldGpus == 1 ? "" : "s") + (rule.maxMib() != null ? ", " + gib(heldMib) : "");
        }
        List<Job> waitingHere = policy.share() == NodePolicy.Share.FAIR ? waiting.get() : List.of();
        List<QueueDemand> ahead = waitingHere.isEmpty() ? List.of() : ahead(policy, claims, capacity, waitingHere);
        if (who == null && ahead.isEmpty()) {
            return capacity;
        }
        return capacity.withRoom(new PolicyRoom(roomGpus, roomMib, who, ahead));
    }

    /**
     * The cap the node's policy puts on this queue's user, sent with a launch's claim so the agent
     * checks it against every claim of theirs under the claims lock; null when uncapped.
     */
    public static LaunchRequest.Cap cap(NodeClaims claims) {
        Optional<NodePolicy> policy = NodePolicy.of(claims);
        if (policy.isEmpty() || claims.me() == null) {
            return null;
        }
        NodePolicy.Rule rule = policy.get().ruleFor(claims.me().name());
        return rule.caps() ? new LaunchRequest.Cap(rule.maxGpus(), rule.maxMib()) : null;
    }

    /**
     * Other users waiting here who are further below their share than this queue's user: their use of
     * the node (MiB their live claims reserve) divided by their weight is lower, or equal with an older
     * wait. One entry per user, the smallest job of their queues, the furthest below first.
     */
    static List<QueueDemand> ahead(NodePolicy policy, NodeClaims claims, NodeCapacity capacity, List<Job> waitingHere) {
        NodeClaims.User me = claims.me();
        Map<Integer, QueueDemand> byUser = new LinkedHashMap<>();
        for (QueueDemand entry : claims.foreignDemand()) {
            if (entry.uid() == me.uid() || entry.waiting() == 0) {
                continue; // the user's own other queues do not yield to the user
            }
            byUser.merge(entry.uid(), entry, NodeShares::smaller);
        }
        if (byUser.isEmpty()) {
            return List.of();
        }
        double mine = share(policy, me.name(), me.uid(), claims, capacity);
        long myOldest = waitingHere.stream().mapToLong(job -> job.createdAt().getEpochSecond()).min().orElse(Long.MAX_VALUE);
        List<QueueDemand> ahead = new ArrayList<>();
        Map<QueueDemand, Double> shares = new LinkedHashMap<>();
        for (QueueDemand entry : byUser.values()) {
            if (!underCap(policy.ruleFor(entry.user()), entry, claims, capacity)) {
                continue; // their own cap keeps that job off the node: a card held for it would idle for ever
            }
            double theirs = share(policy, entry.user(), entry.uid(), claims, capacity);
            shares.put(entry, theirs);
            if (theirs < mine || theirs == mine && (entry.oldestAt() < myOldest
                    || entry.oldestAt() == myOldest && entry.user().compareTo(me.name()) < 0)) {
                ahead.add(entry);
            }
        }
        ahead.sort(Comparator.comparingDouble((QueueDemand entry) -> shares.get(entry))
                .thenComparingLong(QueueDemand::oldestAt).thenComparing(QueueDemand::user));
        return ahead;
    }

    /** Whether the user's cap on the node leaves room for their smallest waiting job. */
    private static boolean underCap(NodePolicy.Rule rule, QueueDemand waiting, NodeClaims claims, NodeCapacity capacity) {
        int heldGpus = 0;
        long heldMib = 0;
        for (GpuClaim claim : claims.live()) {
            if (claim.uid() == waiting.uid()) {
                heldGpus += claim.gpuUuids().size();
                heldMib += claimMib(claim, capacity);
            }
        }
        long card = capacity.gpus().stream().map(GpuCapacity::totalMb).filter(java.util.Objects::nonNull)
                .mapToLong(Long::longValue).max().orElse(0);
        long need = (long) waiting.gpus() * (waiting.exclusive() ? card : waiting.mib());
        return (rule.maxGpus() == null || heldGpus + waiting.gpus() <= rule.maxGpus())
                && (rule.maxMib() == null || heldMib + need <= rule.maxMib());
    }

    /** A user's use of the node divided by their weight: MiB their live claims reserve there. */
    private static double share(NodePolicy policy, String user, int uid, NodeClaims claims, NodeCapacity capacity) {
        long used = 0;
        for (GpuClaim claim : claims.live()) {
            if (claim.uid() == uid) {
                used += claimMib(claim, capacity);
            }
        }
        return used / (double) policy.ruleFor(user).effectiveWeight();
    }

    private static QueueDemand smaller(QueueDemand a, QueueDemand b) {
        long sizeA = a.gpus() * a.mib();
        long sizeB = b.gpus() * b.mib();
        QueueDemand small = sizeA <= sizeB ? a : b;
        return new QueueDemand(small.user(), small.uid(), small.queueId(), small.queueName(), a.waiting() + b.waiting(),
                small.gpus(), small.mib(), small.exclusive(), Math.min(a.oldestAt(), b.oldestAt()), false);
    }

    /** MiB a claim holds over its GPUs: its reservation on each, the whole card when exclusive. */
    private static long claimMib(GpuClaim claim, NodeCapacity capacity) {
        long total = 0;
        for (String uuid : claim.gpuUuids()) {
            Long card = capacity.gpus().stream().filter(gpu -> uuid.equals(gpu.uuid())).map(GpuCapacity::totalMb)
                    .filter(java.util.Objects::nonNull).findFirst().orElse(null);
            total += claim.exclusive() && card != null ? card : claim.mib();
        }
        return total;
    }

    /**
     * What this queue publishes on {@code node} as waiting: its pending GPU jobs that are ready (not
     * held, no dependency still active) and could run there (no other node named).
     */
    public static AgentRequest.Demand demand(String node, Collection<Job> active) {
        return demand(node, active, ids(active));
    }

    /** The ids of {@code active}, for {@link #demand} and {@link #waiting} over many nodes. */
    public static Set<Long> ids(Collection<Job> active) {
        Set<Long> activeIds = new HashSet<>();
        active.forEach(job -> activeIds.add(job.id()));
        return activeIds;
    }

    /** {@link #demand} with the active jobs' ids computed once for every node. */
    public static AgentRequest.Demand demand(String node, Collection<Job> active, Set<Long> activeIds) {
        List<Job> ready = waiting(node, active, activeIds);
        if (ready.isEmpty()) {
            return AgentRequest.Demand.NONE;
        }
        Job smallest = ready.stream().min(Comparator.comparingLong((Job job) -> job.spec().gpus() * job.spec().vramMb())
                .thenComparingLong(Job::id)).orElseThrow();
        long oldest = ready.stream().mapToLong(job -> job.createdAt().getEpochSecond()).min().orElseThrow();
        return new AgentRequest.Demand(ready.size(), smallest.spec().gpus(), smallest.spec().vramMb(),
                smallest.spec().policy().exclusive(), oldest);
    }

    /** The queue's ready pending GPU jobs that could run on {@code node}. */
    public static List<Job> waiting(String node, Collection<Job> active, Set<Long> activeIds) {
        List<Job> ready = new ArrayList<>();
        for (Job job : active) {
            if (job.state() != JobState.PENDING || job.held() || job.spec().cpuOnly()
                    || job.spec().node() != null && !job.spec().node().equals(node)
                    || job.spec().dependencies().stream().anyMatch(dependency -> activeIds.contains(dependency.jobId()))) {
                continue;
            }
            ready.add(job);
        }
        return ready;
    }

    private static String gib(long mib) {
        return String.format(Locale.ROOT, "%.1fG", mib / 1024.0);
    }
}
