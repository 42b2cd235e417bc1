package dev.nvidb.queue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Waiting for jobs to end, ticking the queue meanwhile (rate-limited and lease-guarded, so
 * many waiters make one round of SSH traffic). The front end is told each refreshed list of
 * the waited-for jobs, to show them as they change.
 */
public final class Waiting {

    /**
     * Pause between checks for the first {@link #BRISK} of a wait (a short job's end is then seen
     * within a tick of it: the ticks themselves stay at least 100 ms apart, see {@link #freshness});
     * then it grows by half each time up to {@link #POLL_MAX}.
     */
    static final Duration POLL = Duration.ofMillis(50);
    static final Duration BRISK = Duration.ofMillis(500);
    static final Duration POLL_MAX = Duration.ofSeconds(1);

    private final StatusReading reading;
    private final Ticking ticking;
    private final Clock clock;
    private final Pause pause;

    Waiting(StatusReading reading, Ticking ticking, Clock clock, Pause pause) {
        this.reading = reading;
        this.ticking = ticking;
        this.clock = clock;
        this.pause = pause;
    }

    /**
     * How a wait ended.
     *
     * @param jobs     the jobs as last read, in the order asked for
     * @param timedOut true when the wait gave up with a job still pending or running
     */
    public record Outcome(List<JobView> jobs, boolean timedOut) {

        public Outcome {
            jobs = List.copyOf(jobs);
        }

        /** Every job completed (exit 0). */
        public boolean allCompleted() {
            return !timedOut && jobs.stream().allMatch(job -> job.job().state() == JobState.COMPLETED);
        }
    }

    /**
     * Blocks until every job in {@code ids} has ended, or {@code timeout} (null: no limit) has
     * passed. Between checks it pauses (50 ms for half a second, then growing by half up to 1 s) and, when
     * {@code tick}, brings the queue up to date if due; a pause spent watching a running job's
     * directory on its node ends when the job does, and the tick then runs at once. {@code progress} gets the jobs as first
     * read and after every check.
     */
    public Outcome await(List<Long> ids, Duration timeout, boolean tick, Consumer<List<JobView>> progress) {
        Instant started = clock.instant();
        Instant deadline = timeout == null ? null : started.plus(timeout);
        List<JobView> jobs = views(ids);
        progress.accept(jobs);
        Duration wait = POLL;
        Duration paused = Duration.ZERO;
        Set<String> reported = new HashSet<>();
        while (!allEnded(jobs)) {
            if (deadline != null && clock.instant().isAfter(deadline)) {
                return new Outcome(jobs, true);
            }
            boolean ended = tick ? watch(jobs, wait, reported) : pauseFor(wait);
            paused = paused.plus(wait);
            if (paused.compareTo(BRISK) >= 0) {
                wait = min(POLL_MAX, wait.plus(wait.dividedBy(2)));
            }
            if (tick) {
                ticking.ifOlderThan(ended ? Duration.ZERO : freshness(Duration.between(started, clock.instant())));
            }
            jobs = views(ids);
            progress.accept(jobs);
        }
        return new Outcome(jobs, false);
    }

    /**
     * Waits {@code wait}, on the agent this command keeps on a running job's node where it can
     * ({@link Ticking#awaitExit}): true as soon as one of those jobs ended there, so the tick that
     * records it runs at once instead of at the next poll. Elsewhere a plain pause (false). A
     * directory reported ended once is not watched again: should its job still run here after
     * that (a tick that failed), the ticks see to it, and the loop never spins on it.
     */
    private boolean watch(List<JobView> jobs, Duration wait, Set<String> reported) {
        Map<String, List<String>> dirs = new LinkedHashMap<>();
        for (JobView job : jobs) {
            Assignment at = job.job().assignment();
            if (job.job().state() == JobState.RUNNING && at != null && job.jobDir() != null
                    && !reported.contains(job.jobDir())) {
                dirs.computeIfAbsent(at.node(), node -> new ArrayList<>()).add(job.jobDir());
            }
        }
        Optional<List<String>> ended = dirs.isEmpty() ? Optional.empty() : ticking.awaitExit(dirs, wait);
        if (ended.isEmpty()) {
            return pauseFor(wait);
        }
        reported.addAll(ended.get());
        return !ended.get().isEmpty();
    }

    private boolean pauseFor(Duration wait) {
        pause.pause(wait);
        return false;
    }

    /**
     * How old a tick may be before this waiter makes a new one: a quarter of the time waited so
     * far, at least 100 ms (capped at tick_min_interval by the engine), so a short job's end is
     * seen at once while many long waiters still make few rounds of SSH.
     */
    static Duration freshness(Duration waited) {
        Duration quarter = waited.dividedBy(4);
        return quarter.compareTo(FRESH_MIN) < 0 ? FRESH_MIN : quarter;
    }

    private static final Duration FRESH_MIN = Duration.ofMillis(100);

    private List<JobView> views(List<Long> ids) {
        List<JobView> views = new ArrayList<>();
        for (long id : ids) {
            views.add(reading.getJob(id));
        }
        return views;
    }

    private static boolean allEnded(List<JobView> jobs) {
        return jobs.stream().allMatch(job -> job.job().state().finished());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
