package dev.nvidb.model;

/**
 * How the queue treats a job beyond its resources, fixed at submit: whether it must have its GPUs
 * to itself, and how often an out-of-memory failure is retried with more memory.
 *
 * @param exclusive placed only on GPUs with no process at all (the queue's or anyone's), and while it
 *                  runs no other job is placed on them ({@code --exclusive})
 * @param retryOom  how many times a failure of class {@link FailureClass#OOM} goes back to pending with
 *                  its reservation raised ({@code --retry-oom N}, 0..{@link #MAX_RETRY_OOM})
 * @param allowSlurm may go to a Slurm node when the workstations cannot place it now ({@code --allow-slurm};
 *                  the queue's {@code slurm_overflow} allows it for every job)
 */
public record RunPolicy(boolean exclusive, int retryOom, boolean allowSlurm) {

    /** The most OOM retries a job may ask for. */
    public static final int MAX_RETRY_OOM = 10;

    /** Shares its GPUs, no OOM retry. */
    public static final RunPolicy DEFAULT = new RunPolicy(false, 0, false);

    /** A policy that does not ask for Slurm. */
    public RunPolicy(boolean exclusive, int retryOom) {
        this(exclusive, retryOom, false);
    }

    public RunPolicy {
        if (retryOom < 0 || retryOom > MAX_RETRY_OOM) {
            throw new IllegalArgumentException("--retry-oom must be 0 to " + MAX_RETRY_OOM + ", not " + retryOom);
        }
    }

    /**
     * The per-GPU reservation of the next attempt after an OOM: {@code max(reservation,
     * ceil(1.25 × measured peak))}; when that would not raise it (the peak was never measured, a
     * blind GPU, or the spike that failed it was not seen), {@code ceil(1.25 × reservation)}.
     */
    public static long raisedVram(long vramMb, Long measuredPeakMb) {
        long byPeak = measuredPeakMb == null ? 0 : ceilFiveQuarters(measuredPeakMb);
        return byPeak > vramMb ? byPeak : ceilFiveQuarters(vramMb);
    }

    private static long ceilFiveQuarters(long mb) {
        return (mb * 5 + 3) / 4;
    }
}
