package dev.nvidb.scheduler;

import dev.nvidb.model.Dependency;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a pending job's dependencies let it run now, must wait, or can never be met.
 * A purged dependency (in the queue no longer) counts as ended but not provably successful:
 * {@code --after-any} is met, {@code --after} fails. A pending dependency that itself can
 * never run (its own {@code --after} failed) fails its {@code --after} dependents in the same plan.
 */
final class Dependencies {

    private static final Verdict MET = new Verdict(Verdict.Kind.MET, null);

    private final Map<Long, JobState> states;
    private final Map<Long, Job> pending = new HashMap<>();
    /** Memo of {@link #doomReason}: pending job id → why it can never run, or empty. */
    private final Map<Long, Optional<String>> doomed = new HashMap<>();

    Dependencies(QueueSnapshot queue) {
        this.states = queue.statesById();
        queue.pending().forEach(job -> pending.put(job.id(), job));
    }

    /** What the job's dependencies say, judged in the listed order. */
    Verdict check(Job job) {
        if (job.spec().dependencies().isEmpty()) {
            return MET;
        }
        Optional<String> failure = doomReason(job, new HashSet<>());
        if (failure.isPresent()) {
            return new Verdict(Verdict.Kind.FAILED, failure.get());
        }
        List<String> unfinished = new ArrayList<>();
        for (Dependency dependency : job.spec().dependencies()) {
            JobState state = states.get(dependency.jobId());
            if (state != null && !state.finished()) {
                unfinished.add(dependency.jobId() + " (" + describeUnfinished(dependency.jobId(), state) + ")");
            }
        }
        return unfinished.isEmpty() ? MET : new Verdict(Verdict.Kind.WAITING, waitingReason(unfinished));
    }

    /**
     * Each dependency of the job on its own, in the listed order, judged as {@link #check} judges
     * them: met, waiting (with the state it waits on), or failed for good.
     */
    List<Explanation.DependencyCheck> details(Job job) {
        List<Explanation.DependencyCheck> checks = new ArrayList<>();
        for (Dependency dependency : job.spec().dependencies()) {
            long id = dependency.jobId();
            JobState state = states.get(id);
            Job waiting = pending.get(id);
            boolean held = waiting != null && waiting.held();
            Explanation.DependencyVerdict verdict;
            if (failedDependency(dependency, new HashSet<>(Set.of(job.id()))).isPresent()) {
                verdict = Explanation.DependencyVerdict.FAILED;
            } else if (state != null && !state.finished()) {
                verdict = Explanation.DependencyVerdict.WAITING;
            } else {
                verdict = Explanation.DependencyVerdict.MET;
            }
            checks.add(new Explanation.DependencyCheck(id, dependency.needsSuccess(), state, held, verdict));
        }
        return checks;
    }

    /** "dependency 12 not finished (running)", or "dependencies 12 (running), 13 (pending) not finished". */
    private static String waitingReason(List<String> unfinished) {
        if (unfinished.size() == 1) {
            String only = unfinished.get(0);
            int paren = only.indexOf(' ');
            return "dependency " + only.substring(0, paren) + " not finished" + only.substring(paren);
        }
        return "dependencies " + String.join(", ", unfinished) + " not finished";
    }

    private String describeUnfinished(long id, JobState state) {
        Job job = pending.get(id);
        return job != null && job.held() ? "held" : state.key();
    }

    /** Why {@code job} can never run because of an {@code --after} dependency, if so. */
    private Optional<String> doomReason(Job job, Set<Long> visiting) {
        Optional<String> known = doomed.get(job.id());
        if (known != null) {
            return known;
        }
        if (!visiting.add(job.id())) {
            return Optional.empty(); // a cycle is refused at submit; never loop on one here
        }
        Optional<String> reason = Optional.empty();
        for (Dependency dependency : job.spec().dependencies()) {
            reason = failedDependency(dependency, visiting);
            if (reason.isPresent()) {
                break;
            }
        }
        doomed.put(job.id(), reason);
        return reason;
    }

    private Optional<String> failedDependency(Dependency dependency, Set<Long> visiting) {
        if (!dependency.needsSuccess()) {
            return Optional.empty(); // --after-any: any end, including a purge, will do
        }
        long id = dependency.jobId();
        JobState state = states.get(id);
        if (state == null) {
            return Optional.of("dependency " + id + " was purged, so its success cannot be checked");
        }
        if (state.endedBadly()) {
            return Optional.of("dependency " + id + " " + endedAs(state));
        }
        Job waiting = pending.get(id);
        if (waiting != null && !waiting.held()) {
            // A held dependency may still be released and succeed: only a doomed one fails its dependents.
            return doomReason(waiting, visiting).map(why -> "dependency " + id + " can never run: " + why);
        }
        return Optional.empty();
    }

    private static String endedAs(JobState state) {
        return switch (state) {
            case FAILED -> "failed";
            case CANCELLED -> "was cancelled";
            case TIMEOUT -> "timed out";
            case LOST -> "was lost";
            default -> "ended as " + state.key();
        };
    }

    /** What the dependencies say: met, waiting (with a reason) or failed for good (with a reason). */
    record Verdict(Kind kind, String reason) {

        /** The three outcomes. */
        enum Kind { MET, WAITING, FAILED }
    }
}
