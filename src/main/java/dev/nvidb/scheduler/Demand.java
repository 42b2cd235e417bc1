package dev.nvidb.scheduler;

import dev.nvidb.model.JobSpec;

/**
 * What a job asks of the cluster, without who asks: jobs with equal demands fit in the same
 * places. Within one plan capacity only shrinks, so a demand that found no room stays without
 * room for the rest of the plan; the scheduler caches on that.
 *
 * @param gpus   GPUs on one node (0: CPU-only)
 * @param vramMb MiB per GPU
 * @param node   the required node, or null
 * @param exclusive only GPUs with no process at all ({@code --exclusive})
 */
record Demand(int gpus, long vramMb, String node, boolean exclusive) {

    static Demand of(JobSpec spec) {
        return new Demand(spec.gpus(), spec.vramMb(), spec.node(), spec.policy().exclusive());
    }
}
