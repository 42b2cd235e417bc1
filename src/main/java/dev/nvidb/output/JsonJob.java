package dev.nvidb.output;

import dev.nvidb.model.Dependency;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import com.fasterxml.jackson.annotation.JsonRawValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * One job in every JSON document. Times are seconds since the epoch (with milliseconds);
 * {@code result} is the job's result document itself, not a string. Environment values stay
 * out (they may hold secrets): {@code env_names} lists the variables set.
 */
public record JsonJob(
        long id,
        String name,
        String state,
        String command,
        String node,
        List<Integer> gpuIds,
        int gpus,
        long vramMb,
        int priority,
        List<Long> dependsOn,
        List<Long> dependsOnAny,
        String submitter,
        BigDecimal createdAt,
        BigDecimal startedAt,
        BigDecimal finishedAt,
        Integer exitCode,
        int attempt,
        int maxRetries,
        String lastError,
        String notes,
        String progress,
        @JsonRawValue String result,
        boolean held,
        String pendingReason,
        BigDecimal unverifiedSince,
        String requestedNode,
        String jobDir,
        String workdir,
        List<String> envNames,
        Long timeoutS,
        List<String> tags,
        String group,
        Integer arrayIndex,
        String key,
        String failureClass,
        boolean exclusive,
        int retryOom,
        int oomRetries,
        boolean allowSlurm) {

    /** A job as the queue's use cases read it: pending reason, node silence, result, directory and OOM retries. */
    public static JsonJob of(dev.nvidb.queue.JobView view) {
        return of(view.job(), view.pendingReason(), view.unverifiedSince(), view.job().result(), view.jobDir(),
                view.oomRetries());
    }

    /**
     * @param job             the job
     * @param pendingReason   why a pending job is not running yet, or null
     * @param unverifiedSince when its node stopped answering while it ran, or null
     * @param result          the result document: its stored JSON text, or a parsed value; or null
     * @param jobDir          the current attempt's directory on its node ({@code ~} is the node's home), or null
     */
    public static JsonJob of(Job job, String pendingReason, Instant unverifiedSince, Object result) {
        return of(job, pendingReason, unverifiedSince, result, null);
    }

    /** The job with where its current attempt lives on its node. */
    public static JsonJob of(Job job, String pendingReason, Instant unverifiedSince, Object result, String jobDir) {
        return of(job, pendingReason, unverifiedSince, result, jobDir, 0);
    }

    /** The job with where its current attempt lives, and how many of its OOM retries were used. */
    public static JsonJob of(Job job, String pendingReason, Instant unverifiedSince, Object result, String jobDir,
                             int oomRetries) {
        // The stored result is validated JSON text: it is copied into the document as it is,
        // not parsed and written again (a list of a thousand jobs would pay that a thousand times).
        String raw = result == null ? null : result instanceof String text ? text : Json.compact(result);
        JobSpec spec = job.spec();
        List<Long> after = spec.dependencies().stream().filter(Dependency::needsSuccess).map(Dependency::jobId).toList();
        List<Long> afterAny = spec.dependencies().stream().filter(d -> !d.needsSuccess()).map(Dependency::jobId).toList();
        List<Integer> gpuIds = job.assignment() == null ? List.of() : job.assignment().gpuIds();
        String node = job.assignment() == null ? null : job.assignment().node();
        String reason = job.held() ? "held: " + job.holdReason() : pendingReason;
        return new JsonJob(job.id(), spec.name(), job.state().key(), spec.command(), node, gpuIds, spec.gpus(),
                spec.vramMb(), job.priority(), after, afterAny, spec.submitter(), seconds(job.createdAt()),
                seconds(job.startedAt()), seconds(job.finishedAt()), job.exitCode(), job.attempt(), spec.maxRetries(),
                job.lastError(), job.note(), job.progress(), raw, job.held(),
                job.state() == dev.nvidb.model.JobState.PENDING ? reason : null, seconds(unverifiedSince), spec.node(),
                jobDir, spec.workdir(), List.copyOf(spec.environment().keySet()), spec.timeoutSeconds(), spec.tags(),
                spec.sweep().group(), spec.sweep().arrayIndex(), spec.sweep().key(),
                job.failureClass() == null ? null : job.failureClass().key(), spec.policy().exclusive(),
                spec.policy().retryOom(), oomRetries, spec.policy().allowSlurm());
    }

    /** Seconds since the epoch with millisecond precision, written as a plain decimal number. */
    static BigDecimal seconds(Instant instant) {
        return instant == null ? null : BigDecimal.valueOf(instant.toEpochMilli(), 3);
    }
}
