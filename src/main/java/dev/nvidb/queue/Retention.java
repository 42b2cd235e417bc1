package dev.nvidb.queue;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.DirRemoval;
import dev.nvidb.agent.DirRemovalReport;
import dev.nvidb.config.NotifyConfig;
import dev.nvidb.config.RetentionConfig;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.store.MetaStore;
import dev.nvidb.store.RetentionStore;
import dev.nvidb.store.RetentionStore.OldDir;
import dev.nvidb.store.SqlWork;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Retention ({@code queue gc}, and the daemon about once an hour): removes what is older than
 * {@code queue.retention} allows and nothing still needed (see {@link RetentionStore}). Job
 * directories go first, one agent request per node that has some due (at most
 * {@link #DIRS_PER_NODE} a run); a finished job's row stays until its node has dealt with its
 * directory, so no directory is ever forgotten while its node is away.
 */
public final class Retention {

    /** Job directories removed on one node in one run at most. */
    static final int DIRS_PER_NODE = 500;

    private final QueueEngine engine;

    Retention(QueueEngine engine) {
        this.engine = engine;
    }

    /** When retention last ran, if it did. */
    public Optional<Instant> lastRunAt() {
        return new MetaStore(engine.database()).getInstant(RetentionStore.LAST_RUN_AT);
    }

    /** Runs retention now; with {@code dryRun}, measures what it would remove and changes nothing. */
    public RetentionResult run(boolean dryRun) {
        RetentionConfig config = engine.settings().queue().retention();
        Instant now = engine.clock().instant();
        RetentionStore store = new RetentionStore(engine.database());
        List<String> problems = new ArrayList<>();
        int dirs = 0;
        if (config.jobDirsDays() > 0) {
            dirs = dryRun ? dirsDue(store, cutoff(now, config.jobDirsDays()))
                    : removeDirs(store, cutoff(now, config.jobDirsDays()), problems);
        }
        List<String> channels = channels(engine.settings().queue().notifications());
        List<String> nodes = engine.nodes().names();
        boolean dirsFirst = config.jobDirsDays() > 0;
        int removedDirs = dirs;
        SqlWork<RetentionResult> work = conn -> {
            List<Long> jobs = config.finishedJobsDays() == 0 ? List.of()
                    : store.removeJobs(conn, cutoff(now, config.finishedJobsDays()), dirsFirst, nodes, now);
            int events = config.eventsDays() == 0 ? 0 : store.removeEvents(conn, cutoff(now, config.eventsDays()));
            int alerts = config.alertsDays() == 0 ? 0
                    : store.removeAlerts(conn, cutoff(now, config.alertsDays()), channels);
            // Operation ids answer retries for Operations.KEEP_DAYS days, whatever else is kept.
            new dev.nvidb.store.OperationStore(engine.database()).expire(conn, cutoff(now, Operations.KEEP_DAYS));
            if (!dryRun) {
                new MetaStore(engine.database()).putInstant(conn, RetentionStore.LAST_RUN_AT, now);
            }
            return new RetentionResult(dryRun, jobs, events, alerts, removedDirs, problems);
        };
        return dryRun ? engine.database().rehearse("measure retention", work)
                : engine.database().write("remove old jobs, events and alerts", work);
    }

    private static Instant cutoff(Instant now, int days) {
        return now.minus(Duration.ofDays(days));
    }

    /** The delivery channels an alert is owed to under {@code queue.notify}. */
    static List<String> channels(NotifyConfig notify) {
        List<String> channels = new ArrayList<>();
        if (notify.log()) {
            channels.add("log");
        }
        if (notify.desktop()) {
            channels.add("desktop");
        }
        if (notify.command() != null) {
            channels.add("command");
        }
        return channels;
    }

    private int dirsDue(RetentionStore store, Instant cutoff) {
        int due = 0;
        for (String node : engine.nodes().names()) {
            due += (int) store.oldDirs(node, cutoff, DIRS_PER_NODE).stream().filter(dir -> dir.attemptDir() != null).count();
        }
        return due;
    }

    private int removeDirs(RetentionStore store, Instant cutoff, List<String> problems) {
        Map<String, List<OldDir>> due = new LinkedHashMap<>();
        for (String node : engine.nodes().names()) {
            List<OldDir> old = store.oldDirs(node, cutoff, DIRS_PER_NODE);
            if (old.stream().noneMatch(dir -> dir.attemptDir() != null)) {
                store.dirsDone(node, old.size() < DIRS_PER_NODE ? cutoff : old.get(old.size() - 1).finishedAt());
            } else {
                due.put(node, old);
            }
        }
        if (due.isEmpty()) {
            return 0;
        }
        List<Node> asked = engine.nodes().nodes().stream().filter(node -> due.containsKey(node.name())).toList();
        Function<Node, AgentRequest> request = node -> engine.nodes().request(node.name())
                .withoutSnapshot().withDirRemovals(due.get(node.name()).stream().filter(dir -> dir.attemptDir() != null)
                        .map(dir -> DirRemoval.ofAttempt(dir.jobId(), dir.attemptDir())).toList());
        int removed = 0;
        for (NodeAnswer answer : new ProbeRound(engine.settings().agent(), engine.settings().nodeTimeout())
                .each(asked, request)) {
            if (!answer.answered()) {
                problems.add(answer.node() + ": job directories not removed: " + answer.failure());
                continue;
            }
            Map<Long, DirRemovalReport> reports = DirRemovalReport.parse(answer.raw()).stream()
                    .collect(Collectors.toMap(DirRemovalReport::id, report -> report, (first, second) -> first));
            List<OldDir> old = due.get(answer.node());
            Instant until = old.size() < DIRS_PER_NODE ? cutoff : old.get(old.size() - 1).finishedAt();
            for (OldDir dir : old) {
                DirRemovalReport report = dir.attemptDir() == null ? null : reports.get(dir.jobId());
                if (dir.attemptDir() != null && (report == null || report.outcome() == DirRemovalReport.Outcome.RUNNING)) {
                    until = dir.finishedAt();  // asked again next run; every job that ended before it is done
                    break;
                }
            }
            for (DirRemovalReport report : reports.values()) {
                switch (report.outcome()) {
                    case REMOVED -> removed++;
                    case ERROR -> problems.add(answer.node() + ": job " + report.id() + "'s directory: " + report.reason());
                    default -> { }
                }
            }
            store.dirsDone(answer.node(), until);
        }
        return removed;
    }
}
