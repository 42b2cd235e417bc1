package dev.nvidb.output;

import dev.nvidb.model.SecretNames;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The {@code job show} block: one labelled line per fact that is set. Pure. */
public final class JobDetailText {

    private JobDetailText() {
    }

    public static String render(Job job, String pendingReason, Instant unverifiedSince, Instant now) {
        return render(job, pendingReason, unverifiedSince, null, now);
    }

    /** The block with the attempt's directory on its node; credential values masked. */
    public static String render(Job job, String pendingReason, Instant unverifiedSince, String jobDir, Instant now) {
        return render(job, pendingReason, unverifiedSince, jobDir, now, false);
    }

    /**
     * The block; the {@code env} line shows each variable's value, those whose names look like
     * credentials ({@link SecretNames}) as {@value SecretNames#MASK} unless {@code reveal}.
     */
    public static String render(Job job, String pendingReason, Instant unverifiedSince, String jobDir, Instant now,
                                boolean reveal) {
        JobSpec spec = job.spec();
        List<String[]> lines = new ArrayList<>();
        add(lines, "job", job.id() + "  " + spec.name());
        add(lines, "state", job.state().key() + (job.held() ? " (held)" : ""));
        add(lines, "info", JobText.info(job, pendingReason, unverifiedSince, now));
        add(lines, "command", spec.command());
        add(lines, "wants", (spec.cpuOnly() ? "CPU only" : spec.gpus() + (spec.gpus() == 1 ? " GPU" : " GPUs")
                + (spec.vramMb() > 0 ? " with " + Units.mebibytes(spec.vramMb()) + " each" : ""))
                + (spec.node() == null ? "" : " on " + spec.node())
                + (spec.policy().exclusive() ? ", exclusive" : ""));
        Assignment assignment = job.assignment();
        if (assignment != null) {
            add(lines, "placed", assignment.node() + (assignment.gpuIds().isEmpty() ? "" : " GPU "
                    + assignment.gpuIds().stream().map(String::valueOf).collect(Collectors.joining(","))));
        }
        add(lines, "directory", jobDir == null ? null : jobDir + (job.assignment() == null ? "" : " on " + job.assignment().node()));
        add(lines, "priority", String.valueOf(job.priority()));
        add(lines, "after", dependencies(spec));
        add(lines, "attempt", job.attempt() + (spec.maxRetries() > 0 ? " (retries allowed: " + spec.maxRetries() + ")" : ""));
        add(lines, "oom retry", spec.policy().retryOom() == 0 ? null : "up to " + spec.policy().retryOom()
                + " with more memory (--retry-oom)");
        add(lines, "workdir", spec.workdir());
        add(lines, "env", spec.environment().isEmpty() ? null : environment(spec, reveal));
        add(lines, "timeout", spec.timeoutSeconds() == null ? null : spec.timeoutSeconds() + " s");
        add(lines, "tags", spec.tags().isEmpty() ? null : String.join(", ", spec.tags()));
        add(lines, "submitted", JobText.ago(job.createdAt(), now) + " ago by " + spec.submitter());
        add(lines, "started", job.startedAt() == null ? null : JobText.ago(job.startedAt(), now) + " ago");
        add(lines, "finished", job.finishedAt() == null ? null : JobText.ago(job.finishedAt(), now) + " ago");
        add(lines, "exit code", job.exitCode() == null ? null : String.valueOf(job.exitCode()));
        add(lines, "failure", job.failureClass() == null ? null : job.failureClass().key());
        add(lines, "error", job.lastError());
        add(lines, "note", job.note());
        add(lines, "progress", job.progress());
        add(lines, "result", job.result());
        StringBuilder out = new StringBuilder();
        for (String[] line : lines) {
            out.append(String.format("%-10s %s%n", line[0], line[1]));
        }
        return out.toString();
    }

    private static String environment(JobSpec spec, boolean reveal) {
        String shown = spec.environment().entrySet().stream()
                .map(entry -> {
                    String value = SecretNames.shown(entry.getKey(), entry.getValue(), reveal);
                    return entry.getKey() + "=" + (value.equals(entry.getValue()) ? quoted(value) : value);
                })
                .collect(Collectors.joining(" "));
        boolean hidden = !reveal && spec.environment().keySet().stream().anyMatch(SecretNames::looksSecret);
        return hidden ? shown + "  (masked: --reveal shows them)" : shown;
    }

    /** A value as a shell would read it back: bare when plain, else in single quotes. */
    private static String quoted(String value) {
        if (!value.isEmpty() && value.chars().allMatch(c -> Character.isLetterOrDigit(c) || "_./:,@%+=-".indexOf(c) >= 0)) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }

    private static String dependencies(JobSpec spec) {
        if (spec.dependencies().isEmpty()) {
            return null;
        }
        return spec.dependencies().stream().map(d -> d.jobId() + (d.needsSuccess() ? "" : " (any end)"))
                .collect(Collectors.joining(", "));
    }

    private static void add(List<String[]> lines, String label, String value) {
        if (value != null && !value.isBlank()) {
            lines.add(new String[] {label, Printable.lines(value.stripTrailing()).replace("\n", "\n           ")});
        }
    }
}
