package dev.nvidb.queue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moving a pending job a number of places in dispatch order (priority descending, then id
 * ascending) by giving priorities. Pure: {@link #plan} takes the pending jobs and returns the
 * new priorities.
 *
 * <p>The rule. The job moves past exactly {@code places} jobs (or to the front or back when
 * fewer are there). It takes the smallest change of priority that puts it right next to the
 * last job it passes: that job's priority when the tie-break by id already orders them, else one
 * more (moving up) or one less (moving down). Jobs beyond its new place that would then fall
 * on the wrong side of it are shifted the same way, one after another, each by the least that
 * keeps it where it was, until the order there is unchanged. So with a, b and c pending at
 * priority 0, {@code c --up 1} gives c and a priority 1 (order a, c, b), and
 * {@code a --down 1} gives a and c priority -1 (order b, a, c). Every job keeps its place
 * relative to every job other than the one moved.
 */
final class PriorityMove {

    /** A pending job as the move sees it. */
    record Slot(long id, int priority) {
    }

    /** Dispatch order: higher priority first, then lower id. */
    static final Comparator<Slot> DISPATCH = Comparator.comparingInt(Slot::priority).reversed()
            .thenComparingLong(Slot::id);

    private PriorityMove() {
    }

    /**
     * The priorities to write so job {@code id} moves {@code places} earlier (positive) or later
     * (negative) among {@code pending}: only the jobs whose priority changes, the moved job
     * included; empty when it cannot move (already first or last).
     */
    static Map<Long, Integer> plan(List<Slot> pending, long id, int places) {
        List<Slot> order = new ArrayList<>(pending);
        order.sort(DISPATCH);
        int index = -1;
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).id() == id) {
                index = i;
            }
        }
        if (index < 0) {
            throw new IllegalArgumentException("job " + id + " is not pending");
        }
        int target = (int) Math.max(0, Math.min(order.size() - 1L, (long) index - places));
        if (target == index) {
            return Map.of();
        }
        List<Slot> moved = new ArrayList<>(order);
        Slot job = moved.remove(index);
        moved.add(target, job);
        int[] priority = moved.stream().mapToInt(Slot::priority).toArray();
        if (target < index) {
            Slot passed = moved.get(target + 1);
            priority[target] = Math.addExact(passed.priority(), job.id() < passed.id() ? 0 : 1);
            for (int i = target - 1; i >= 0 && !before(moved.get(i).id(), priority[i], moved.get(i + 1).id(), priority[i + 1]); i--) {
                priority[i] = Math.addExact(priority[i + 1], moved.get(i).id() < moved.get(i + 1).id() ? 0 : 1);
            }
        } else {
            Slot passed = moved.get(target - 1);
            priority[target] = Math.subtractExact(passed.priority(), passed.id() < job.id() ? 0 : 1);
            for (int i = target + 1; i < moved.size() && !before(moved.get(i - 1).id(), priority[i - 1], moved.get(i).id(), priority[i]); i++) {
                priority[i] = Math.subtractExact(priority[i - 1], moved.get(i - 1).id() < moved.get(i).id() ? 0 : 1);
            }
        }
        Map<Long, Integer> changes = new LinkedHashMap<>();
        for (int i = 0; i < moved.size(); i++) {
            if (priority[i] != moved.get(i).priority()) {
                changes.put(moved.get(i).id(), priority[i]);
            }
        }
        return changes;
    }

    /** Whether job a (priority pa) is dispatched before job b (priority pb). */
    private static boolean before(long a, int pa, long b, int pb) {
        return pa > pb || pa == pb && a < b;
    }
}
