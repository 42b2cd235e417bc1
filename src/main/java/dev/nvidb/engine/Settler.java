package dev.nvidb.engine;

import dev.nvidb.agent.JobReport;
import dev.nvidb.agent.KillReport;
import dev.nvidb.agent.ProbeReply;
import dev.nvidb.agent.RunScript;
import dev.nvidb.agent.SlurmStates;
import dev.nvidb.agent.WrapperProcess;
import dev.nvidb.model.FailureClass;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.ProcessIdentity;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.SqlWork;
import dev.nvidb.store.StoredJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records what a node said about the queue's jobs there: ends (completed, failed, lost, or
 * back to pending while retries remain), progress lines, results, measured memory, and kills
 * done. Every change is a compare-and-set on state and attempt, so a late or repeated report
 * cannot overwrite a newer state. Returns the jobs whose launch never happened, to launch again
 * on the same node.
 */
final class Settler {

    private final Database database;
    private final JobTransitions transitions;
    private final JobAnnotations annotations;
    private final ReapStore reaps;
    private final Alerts alerts;

    private final dev.nvidb.config.FailFast failFast;
    private final dev.nvidb.store.GroupStore groups;

    Settler(Database database, Alerts alerts, dev.nvidb.config.FailFast failFast) {
        this.database = database;
        this.failFast = failFast;
        this.groups = new dev.nvidb.store.GroupStore(database);
        this.transitions = new JobTransitions(database);
        this.annotations = new JobAnnotations(database);
        this.reaps = new ReapStore(database);
        this.alerts = alerts;
    }

    /** Applies {@code reply} to the jobs running on {@code node}; returns those to launch again, and the ended ids. */
    Outcome settle(String node, ProbeReply reply, List<StoredJob> running, Instant now) {
        Map<Long, Long> measured = Capacities.largestUse(reply, running);
        List<StoredJob> relaunch = new ArrayList<>();
        List<Long> ended = new ArrayList<>();
        for (StoredJob stored : running) {
            JobReport report = report(reply, stored.id(), stored.job().attempt());
            if (report == null) {
                continue;
            }
            switch (report.status()) {
                case RUNNING -> running(node, stored, report, measured.get(stored.id()),
                        Capacities.wrongGpus(reply, stored), now);
                case EXITED -> ended.add(exited(node, stored, report, measured.get(stored.id()), now));
                case VANISHED -> ended.add(vanished(node, stored, report, now));
                case MISSING -> relaunch.add(stored);
                case ERROR -> { }
            }
        }
        return new Outcome(relaunch, ended);
    }

    private static String join(List<Integer> gpus) {
        return String.join(",", gpus.stream().map(String::valueOf).toList());
    }

    /** Jobs to launch again, and jobs whose end was recorded. */
    record Outcome(List<StoredJob> relaunch, List<Long> ended) {
    }

    /**
     * Completes the reaps the node reported on (signalled, already gone, or the pid is no longer
     * ours). A reap known only by launch token was queried as a job: a running one gets its
     * process named (the launch exec of this tick kills it), an ended or missing one is done.
     */
    void reaped(String node, ProbeReply reply, List<PendingReap> owed, Instant now) {
        for (PendingReap reap : owed) {
            if (reap.target().process() == null && reap.target().jobId() != null) {
                String dir = reap.target().jobDir();
                JobReport report = dir == null ? null : reply.jobs().stream()
                        .filter(r -> r.id() == reap.target().jobId() && dir.endsWith("/" + r.attempt())).findFirst()
                        .orElse(null);
                if (report != null && report.status() == JobReport.Status.RUNNING && report.wrapper() != null) {
                    reaps.identify(node, reap.target().launchToken(), identity(report.wrapper()));
                } else if (report != null && report.status() != JobReport.Status.ERROR) {
                    reaps.complete(reap.id(), now);
                }
                continue;
            }
            reply.findKill(reap.id()).ifPresent(kill -> {
                if (kill.outcome() == KillReport.Outcome.ERROR) {
                    reaps.recordAttempt(reap.id(), kill.reason(), now);
                } else {
                    reaps.complete(reap.id(), now);
                }
            });
        }
    }

    private void running(String node, StoredJob stored, JobReport report, Long measuredMb, List<Integer> wrongGpus,
                         Instant now) {
        Job job = stored.job();
        int attempt = job.attempt();
        database.write("update job " + job.id(), conn -> {
            adopt(stored, report, now).run(conn);
            if (!wrongGpus.isEmpty()) {
                List<Integer> given = job.assignment().gpuIds();
                alerts.jobWrongGpu(job.id(), attempt, node, "job " + job.id() + " (" + job.spec().name() + ") uses GPU "
                        + join(wrongGpus) + " of " + node + " but was given " + (given.isEmpty() ? "no GPU"
                        : "GPU " + join(given)) + ": it ignores CUDA_VISIBLE_DEVICES; its memory there is charged to it,"
                        + " and other people's work on that GPU may suffer", now).run(conn);
            }
            String progress = slurmProgress(report);
            if (progress != null && !progress.equals(job.progress())) {
                annotations.setProgress(conn, job.id(), attempt, progress);
            }
            if (measuredMb != null) {
                annotations.recordMeasured(conn, job.id(), attempt, measuredMb);
            }
            return null;
        });
    }

    /**
     * The progress line to show: the job's own, except while Slurm holds it back (pending, suspended, …),
     * when it is Slurm's state and reason ({@code Slurm job 12: PENDING (Resources)}), which {@code job why}
     * and {@code job ls} show.
     */
    static String slurmProgress(JobReport report) {
        if (report.slurm() == null || (report.slurm().state().equals("RUNNING") && report.progress() != null)) {
            return report.progress();
        }
        return "Slurm job " + report.slurm().jobId() + ": " + report.slurm().describe();
    }

    private long exited(String node, StoredJob stored, JobReport report, Long measuredNow, Instant now) {
        SlurmStates.Kind slurm = report.slurm() == null ? null : SlurmStates.of(report.slurm().state());
        if (slurm == SlurmStates.Kind.TIMEOUT) {
            return slurmTimeout(node, stored, report, now);
        }
        Job job = stored.job();
        boolean success = report.exitCode() != null && report.exitCode() == 0 && slurm != SlurmStates.Kind.OUT_OF_MEMORY;
        String log = report.failureLog() != null ? report.failureLog() : report.logTail();
        FailureClass failureClass = success ? null : slurm == SlurmStates.Kind.OUT_OF_MEMORY ? FailureClass.OOM
                : FailureClass.ofExit(report.exitCode(), log);
        database.write("finish job " + job.id(), conn -> {
            adopt(stored, report, now).run(conn);
            if (report.progress() != null) {
                annotations.setProgress(conn, job.id(), job.attempt(), report.progress());
            }
            if (report.result() != null) {
                annotations.setAttemptResult(conn, job.id(), job.attempt(), report.result());
            }
            String error = !success ? failedError(report.exitCode(), failureClass, log)
                    : report.resultError() != null ? "result.json not collected: " + report.resultError() : null;
            if (failureClass == FailureClass.OOM && retryOom(node, stored, measuredNow, error, now).run(conn)) {
                return null;
            }
            JobState to = success ? JobState.COMPLETED : JobState.FAILED;
            boolean finished = transitions.finish(conn, job.id(), Expected.of(job), to, report.exitCode(), error,
                    failureClass, now);
            if (finished && !success) {
                alerts.jobFailed(job.id(), job.attempt(), node, "job " + job.id() + " (" + job.spec().name() + ") "
                        + error + " on " + node + " (failure class: " + failureClass.key() + ")", report.logTail(),
                        now).run(conn);
            }
            if (finished) {
                failFast(job, success, now).run(conn);
            }
            return null;
        });
        return job.id();
    }

    /** A job Slurm ended at its time limit: timed out, as nvidb's own deadline would have. */
    private long slurmTimeout(String node, StoredJob stored, JobReport report, Instant now) {
        Job job = stored.job();
        String why = "Slurm ended job " + report.slurm().jobId() + " at its time limit (TIMEOUT)";
        database.write("finish job " + job.id(), conn -> {
            adopt(stored, report, now).run(conn);
            if (transitions.finish(conn, job.id(), Expected.of(job), JobState.TIMEOUT, null, why, now)) {
                alerts.jobTimeout(job.id(), job.attempt(), node, "job " + job.id() + " timed out: " + why, now).run(conn);
            }
            return null;
        });
        return job.id();
    }

    /** {@code exited with status N}, and what that was when it was more than an exit code. */
    static String failedError(Integer exitCode, FailureClass failureClass, String log) {
        String status = "exited with status " + exitCode;
        return switch (failureClass) {
            case OOM -> status + ": out of memory (" + FailureClass.oomPattern(log).orElse("Slurm: OUT_OF_MEMORY")
                    + (FailureClass.oomPattern(log).isPresent() ? " in its log)" : ")");
            case SIGNAL -> status + ": " + FailureClass.describe(failureClass, exitCode);
            default -> status + launchScriptReason(exitCode, log).map(reason -> ": " + reason).orElse("");
        };
    }

    /**
     * Why the job's run script gave up before the command ran, from the line it printed: today only
     * a working directory it could not enter ({@link RunScript#EXIT_NO_WORKDIR}). The last such line
     * of the log counts; a command of the user's exiting 126 without it gets nothing added.
     */
    static Optional<String> launchScriptReason(Integer exitCode, String log) {
        if (exitCode == null || exitCode != RunScript.EXIT_NO_WORKDIR || log == null) {
            return Optional.empty();
        }
        int at = log.lastIndexOf(RunScript.NO_WORKDIR_LINE);
        if (at < 0 || (at > 0 && log.charAt(at - 1) != '\n')) {
            return Optional.empty();
        }
        int end = log.indexOf('\n', at);
        String line = log.substring(at + "nvidb: ".length(), end < 0 ? log.length() : end).strip();
        return Optional.of(line.length() > 300 ? line.substring(0, 300) + "…" : line);
    }

    /**
     * An OOM failure of a job with {@code --retry-oom} retries left goes back to pending with its
     * reservation raised ({@link RunPolicy#raisedVram}: 1.25 × the peak measured for this attempt, or
     * 1.25 × the reservation when the peak is unknown or lower), with a {@code retried} event and a
     * {@code job_retried} alert; false when none is left (the caller records the failure).
     */
    private SqlWork<Boolean> retryOom(String node, StoredJob stored, Long measuredNow, String error, Instant now) {
        return conn -> {
            Job job = stored.job();
            int allowed = job.spec().policy().retryOom();
            if (allowed == 0 || job.spec().cpuOnly()) {
                return false;
            }
            Long peak = stored.measuredMb();
            if (measuredNow != null && (peak == null || measuredNow > peak)) {
                peak = measuredNow;
            }
            long before = job.spec().vramMb();
            long raised = RunPolicy.raisedVram(before, peak);
            String why = error + "; retried with " + raised + " MiB per GPU (was " + before + " MiB, peak seen "
                    + (peak == null ? "unknown" : peak + " MiB") + ")";
            if (!transitions.retryOom(conn, job.id(), job.attempt(), before, raised, why, now)) {
                return false;
            }
            alerts.jobRetried(job.id(), job.attempt(), node, "job " + job.id() + " (" + job.spec().name()
                    + ") ran out of memory on " + node + "; retried with " + raised + " MiB per GPU (was " + before
                    + " MiB, peak seen " + (peak == null ? "unknown" : peak + " MiB") + ")", now).run(conn);
            return true;
        };
    }

    /**
     * Fail-fast: a job of a group that failed within the window of its start counts one quick
     * failure; the configured number in a row holds the group, with a {@code group_held} alert,
     * in the transaction that recorded the failure. A success, or a later failure, starts again.
     */
    private dev.nvidb.store.SqlWork<Boolean> failFast(Job job, boolean success, Instant now) {
        return conn -> {
            String group = job.spec().sweep().group();
            if (group == null || !failFast.enabled()) {
                return false;
            }
            Instant started = job.startedAt();
            boolean quick = !success && started != null
                    && !started.plusSeconds(failFast.windowSeconds()).isBefore(now);
            String reason = "group " + group + " held after " + failFast.count() + " quick failures (each within "
                    + failFast.windowSeconds() + " s of starting); nvidb queue release-group " + group;
            if (!groups.recordEnd(conn, group, quick, failFast.count(), reason, now)) {
                return false;
            }
            return alerts.groupHeld(group, now, reason + "; the last was job " + job.id() + " (" + job.spec().name()
                    + ")", now).run(conn);
        };
    }

    private long vanished(String node, StoredJob stored, JobReport report, Instant now) {
        Job job = stored.job();
        String why = "its process vanished on " + node + " without an exit status"
                + (report.reason() == null ? "" : " (" + report.reason() + ")");
        database.write("settle job " + job.id(), conn -> {
            adopt(stored, report, now).run(conn);
            if (transitions.retry(conn, job.id(), job.attempt(), why, now)) {
                alerts.jobRetried(job.id(), job.attempt(), node, "job " + job.id() + " retried: " + why, now).run(conn);
            } else if (transitions.finish(conn, job.id(), Expected.of(job), JobState.LOST, null, why, now)) {
                alerts.jobLost(job.id(), job.attempt(), node, "job " + job.id() + " (" + job.spec().name() + ") lost: "
                        + why, report.logTail(), now).run(conn);
            }
            return null;
        });
        return job.id();
    }

    /**
     * Records the process of an attempt whose launcher died before it could (the node knows
     * it from the pid file), so every attempt that ran has its {@code started} event.
     */
    private SqlWork<Boolean> adopt(StoredJob stored, JobReport report, Instant now) {
        return conn -> stored.process() == null && report.wrapper() != null
                && transitions.recordProcess(conn, stored.id(), stored.job().attempt(), identity(report.wrapper()), now);
    }

    /** The report on this attempt of the job (a job may be asked about twice: its attempt and an old one owing a kill). */
    private static JobReport report(ProbeReply reply, long id, int attempt) {
        return reply.jobs().stream().filter(report -> report.id() == id && report.attempt() == attempt).findFirst()
                .orElse(null);
    }

    static ProcessIdentity identity(WrapperProcess wrapper) {
        return new ProcessIdentity(wrapper.pid(), wrapper.pgid(), wrapper.startTicks(), wrapper.bootId());
    }
}
