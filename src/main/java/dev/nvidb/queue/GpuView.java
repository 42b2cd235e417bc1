package dev.nvidb.queue;

import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.scheduler.GpuBudget;
import java.util.Map;

/**
 * One GPU as the queue sees it: the card, its budget (null when its state is unknown), how
 * its figures were obtained, and which of its processes belong to queue jobs.
 *
 * @param gpu         the card at the node's last answer
 * @param budget      external, reserved, charged and free memory; null when the GPU's state is unknown
 * @param attribution {@code measured}, {@code blind} or {@code unknown}
 * @param jobOfPid    queue job id by process id, for the processes the queue started
 * @param claims      the live claims on the card at the node's last answer, this queue's and others'
 *                    (docs/sharing.md)
 * @see #ownership()
 */
public record GpuView(GpuSnapshot gpu, GpuBudget budget, String attribution, Map<Long, Long> jobOfPid,
                      java.util.List<dev.nvidb.model.GpuClaim> claims) {

    /** A card no queue claims. */
    public GpuView(GpuSnapshot gpu, GpuBudget budget, String attribution, Map<Long, Long> jobOfPid) {
        this(gpu, budget, attribution, jobOfPid, java.util.List.of());
    }

    public GpuView {
        claims = claims == null ? java.util.List.of() : java.util.List.copyOf(claims);
    }

    /**
     * Who the GPU belongs to right now, failing closed: {@code unknown} when its state could not
     * be established (probe error, lost GPU, node not answering: never a placement target),
     * {@code external} when a process the queue did not start is on it (or, on a blind GPU,
     * memory beyond the queue's reservations), {@code shared} when only queue jobs are, else
     * {@code free}. Memory the driver reports with no process at all does not make a GPU
     * external here; the budget still charges it.
     */
    public String ownership() {
        if (budget == null || "unknown".equals(attribution)) {
            return "unknown";
        }
        boolean foreign = gpu.processes().stream().anyMatch(process -> !jobOfPid.containsKey(process.pid()))
                || "blind".equals(attribution) && budget.externalMb() > 0
                || claims.stream().anyMatch(claim -> !claim.ownQueue());
        if (foreign) {
            return "external";
        }
        return budget.jobCount() > 0 || !jobOfPid.isEmpty() ? "shared" : "free";
    }
}
