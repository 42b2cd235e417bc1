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
 */
public record GpuView(GpuSnapshot gpu, GpuBudget budget, String attribution, Map<Long, Long> jobOfPid) {
}
