package dev.nvidb.model;

import java.util.Objects;

/**
 * Where a queue node of kind {@code slurm} submits: a partition of a Slurm cluster, reached through
 * its login node. Slurm owns that node's budget: nvidb hands it jobs with {@code sbatch} and follows
 * them with {@code squeue}/{@code sacct} (docs/scheduling.md, "A Slurm cluster as a node").
 *
 * @param partition the partition jobs go to ({@code sbatch --partition})
 * @param account   {@code --account}, or null for the user's default
 * @param qos       {@code --qos}, or null for the default
 * @param timeLimit {@code --time} in Slurm's format ({@code 60}, {@code 1-00:00:00}), or null for the
 *                  partition's default; a job's own {@code --timeout} is sent when it is shorter
 * @param bin       the folder holding Slurm's commands on the login node, or null to find them on {@code PATH}
 */
public record SlurmTarget(String partition, String account, String qos, String timeLimit, String bin) {

    public SlurmTarget {
        Objects.requireNonNull(partition, "partition");
        if (partition.isBlank()) {
            throw new IllegalArgumentException("a Slurm node needs a partition");
        }
    }
}
