package dev.nvidb.config;

/**
 * Queue settings: defaults, then {@code config.yml queue:}, then {@code queue.yml queue:}, key by key.
 *
 * @param includeLocal      this machine is a queue node too
 * @param localNodeName     the local node's name; null means this machine's short hostname
 * @param tickMinInterval   seconds: a command skips its tick if one finished this recently
 * @param leaseSeconds      how long a tick's lease lasts before another client may take over
 * @param headroomMb        MiB kept free on every GPU beyond the jobs' reservations
 * @param maxJobsPerGpu     jobs sharing one GPU at most; 0 = no limit
 * @param maxCpuJobsPerNode CPU-only jobs per node at most; 0 = no limit
 * @param placement         spread jobs over GPUs or pack them
 * @param jobRoot           job directory root on the node, unexpanded ({@code ~} is the node's home)
 * @param killGraceSeconds  seconds between SIGTERM and SIGKILL when cancelling
 * @param backoffMaxSeconds longest wait before probing a node that keeps failing again
 * @param lostAfterSeconds  how long a node may stay unreachable before its running jobs are
 *                          called lost (their processes are killed if it comes back); 0 = never
 * @param logTailLines      log lines kept with a failed job
 * @param notifications     alert delivery ({@code notify:})
 * @param backup            periodic backups
 * @param retention         how long finished jobs, events, alerts and job directories are kept
 * @param failFast          when quick failures in a row hold a group
 * @param slurmOverflow     a job that the workstations cannot place now may go to a Slurm node
 *                          ({@code slurm_overflow}; a job asks for it alone with {@code --allow-slurm})
 */
public record QueueConfig(
        boolean includeLocal,
        String localNodeName,
        int tickMinInterval,
        int leaseSeconds,
        int headroomMb,
        int maxJobsPerGpu,
        int maxCpuJobsPerNode,
        PlacementPolicy placement,
        String jobRoot,
        int killGraceSeconds,
        int backoffMaxSeconds,
        int lostAfterSeconds,
        int logTailLines,
        NotifyConfig notifications,
        BackupConfig backup,
        RetentionConfig retention,
        FailFast failFast,
        boolean slurmOverflow) {

    /** Settings without Slurm overflow. */
    public QueueConfig(boolean includeLocal, String localNodeName, int tickMinInterval, int leaseSeconds,
                       int headroomMb, int maxJobsPerGpu, int maxCpuJobsPerNode, PlacementPolicy placement,
                       String jobRoot, int killGraceSeconds, int backoffMaxSeconds, int lostAfterSeconds,
                       int logTailLines, NotifyConfig notifications, BackupConfig backup, RetentionConfig retention,
                       FailFast failFast) {
        this(includeLocal, localNodeName, tickMinInterval, leaseSeconds, headroomMb, maxJobsPerGpu, maxCpuJobsPerNode,
                placement, jobRoot, killGraceSeconds, backoffMaxSeconds, lostAfterSeconds, logTailLines, notifications,
                backup, retention, failFast, false);
    }

    /** Settings with the default fail-fast. */
    public QueueConfig(boolean includeLocal, String localNodeName, int tickMinInterval, int leaseSeconds,
                       int headroomMb, int maxJobsPerGpu, int maxCpuJobsPerNode, PlacementPolicy placement,
                       String jobRoot, int killGraceSeconds, int backoffMaxSeconds, int lostAfterSeconds,
                       int logTailLines, NotifyConfig notifications, BackupConfig backup, RetentionConfig retention) {
        this(includeLocal, localNodeName, tickMinInterval, leaseSeconds, headroomMb, maxJobsPerGpu, maxCpuJobsPerNode,
                placement, jobRoot, killGraceSeconds, backoffMaxSeconds, lostAfterSeconds, logTailLines, notifications,
                backup, retention, FailFast.defaults());
    }

    /** Settings with the default retention. */
    public QueueConfig(boolean includeLocal, String localNodeName, int tickMinInterval, int leaseSeconds,
                       int headroomMb, int maxJobsPerGpu, int maxCpuJobsPerNode, PlacementPolicy placement,
                       String jobRoot, int killGraceSeconds, int backoffMaxSeconds, int lostAfterSeconds,
                       int logTailLines, NotifyConfig notifications, BackupConfig backup) {
        this(includeLocal, localNodeName, tickMinInterval, leaseSeconds, headroomMb, maxJobsPerGpu, maxCpuJobsPerNode,
                placement, jobRoot, killGraceSeconds, backoffMaxSeconds, lostAfterSeconds, logTailLines, notifications,
                backup, RetentionConfig.defaults(), FailFast.defaults());
    }

    /** The built-in defaults. */
    public static QueueConfig defaults() {
        return new QueueConfig(false, null, 2, 30, 512, 0, 4, PlacementPolicy.SPREAD, "~/.nvidb/jobs",
                10, 300, 3600, 20, NotifyConfig.defaults(), BackupConfig.defaults(),
                RetentionConfig.defaults(), FailFast.defaults(), false);
    }
}
