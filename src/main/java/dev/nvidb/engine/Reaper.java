package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.KillReport;
import dev.nvidb.agent.JobQuery;
import dev.nvidb.agent.JobReport;
import dev.nvidb.agent.KillRequest;
import dev.nvidb.model.JobState;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.StoredJob;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sends the kills a cancel or requeue just recorded, right away, without waiting for a tick:
 * one exec per node concerned. Before a cancel, asks the nodes of running jobs whether they
 * already ended ({@link #settleNow}); cancels owed while a node was silent are carried out by
 * the first tick that hears from it ({@link #cancelOwed}). Kills are checked against the process identity on the node
 * and are idempotent, so this needs no lease. A node that does not answer keeps its reaps,
 * and the first probe that reaches it again sends them.
 */
final class Reaper {

    private final Database database;
    private final QueueNodes nodes;
    private final TickSettings settings;
    private final Clock clock;

    Reaper(Database database, QueueNodes nodes, TickSettings settings, Clock clock) {
        this.database = database;
        this.nodes = nodes;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Asks the nodes of {@code running} about these jobs now (one exec per node, no snapshot)
     * and records what the nodes say, as a tick's settle does: a job that exited is completed
     * or failed by its exit file, so a cancel that follows finds it ended and cannot contradict
     * it. Returns the ids a node answered about (running, ended or never launched); a job whose
     * node did not answer, or could not tell, is not among them.
     */
    Set<Long> settleNow(List<StoredJob> running) {
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        Map<String, List<StoredJob>> byNode = new LinkedHashMap<>();
        for (StoredJob job : running) {
            if (job.job().state() == JobState.RUNNING) {
                byNode.computeIfAbsent(job.job().assignment().node(), name -> new ArrayList<>()).add(job);
            }
        }
        for (Map.Entry<String, List<StoredJob>> here : byNode.entrySet()) {
            List<JobQuery> queries = here.getValue().stream().map(job -> new JobQuery(job.id(), job.job().attempt(),
                    job.job().assignment().launchToken(), job.jobDir())).toList();
            nodes.findNode(here.getKey()).ifPresent(node -> requests.put(node,
                    nodes.request(here.getKey()).withoutSnapshot().withJobs(queries)));
        }
        Set<Long> answered = new HashSet<>();
        if (requests.isEmpty()) {
            return answered;
        }
        Settler settler = new Settler(database, new Alerts(new AlertStore(database)), settings.queue().failFast());
        for (NodeAnswer answer : new ProbeRound(settings.agent(), settings.nodeTimeout(), nodes.residents()).run(requests).values()) {
            if (!answer.answered() || !answer.reply().agentAnswered()) {
                continue;
            }
            List<StoredJob> here = byNode.get(answer.node());
            settler.settle(answer.node(), answer.reply(), here, clock.instant());
            answered.addAll(toldAbout(answer, here));
        }
        return answered;
    }

    /** The jobs of {@code asked} whose state the node's answer tells (any report but an error). */
    static Set<Long> toldAbout(NodeAnswer answer, List<StoredJob> asked) {
        Set<Long> told = new HashSet<>();
        if (!answer.answered() || !answer.reply().agentAnswered()) {
            return told;
        }
        for (StoredJob job : asked) {
            answer.reply().jobs().stream()
                    .filter(report -> report.id() == job.id() && report.attempt() == job.job().attempt()
                            && report.status() != JobReport.Status.ERROR)
                    .findFirst().ifPresent(report -> told.add(job.id()));
        }
        return told;
    }

    /**
     * Carries out the cancels owed while nodes did not answer ({@link JobTransitions#requestCancel}),
     * after a tick settled what its probe found: a job whose node has now told its state and that
     * is still running (its exit file, had it ended, won already), or that is pending again, is
     * cancelled (a running one owes a kill, which this tick's launch exec sends); a job that ended
     * or is gone drops its request. Returns the ids cancelled.
     */
    List<Long> cancelOwed(Set<Long> told, Instant now) {
        JobTransitions transitions = new JobTransitions(database);
        JobStore jobs = new JobStore(database);
        List<Long> cancelled = new ArrayList<>();
        for (long id : transitions.cancelsOwed()) {
            database.write("cancel job " + id, conn -> {
                StoredJob job = jobs.findJob(conn, id).orElse(null);
                if (job == null || job.job().state().finished()) {
                    transitions.cancelOwedDone(conn, id);
                } else if (job.job().state() == JobState.PENDING || told.contains(id)) {
                    if (transitions.cancel(conn, id, Expected.of(job.job()), "cancelled by request", now)) {
                        cancelled.add(id);
                    }
                    transitions.cancelOwedDone(conn, id);
                }
                return null;
            });
        }
        return cancelled;
    }

    /** Sends every owed kill on {@code nodeNames}; returns how many were completed. */
    int reapNow(List<String> nodeNames) {
        ReapStore reaps = new ReapStore(database);
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        Map<String, List<PendingReap>> owed = new LinkedHashMap<>();
        for (String name : nodeNames) {
            List<PendingReap> here = reaps.list(name);
            List<KillRequest> kills = Launches.kills(here, settings.queue());
            if (!kills.isEmpty()) {
                nodes.findNode(name).ifPresent(node -> {
                    requests.put(node, nodes.request(name).withoutSnapshot().withKills(kills));
                    owed.put(name, here);
                });
            }
        }
        int done = 0;
        Instant now = clock.instant();
        for (NodeAnswer answer : new ProbeRound(settings.agent(), settings.nodeTimeout(), nodes.residents()).run(requests).values()) {
            if (!answer.answered()) {
                continue;
            }
            for (PendingReap reap : owed.get(answer.node())) {
                KillReport kill = answer.reply().findKill(reap.id()).orElse(null);
                if (kill != null && kill.outcome() != KillReport.Outcome.ERROR) {
                    reaps.complete(reap.id(), now);
                    done++;
                }
            }
        }
        return done;
    }
}
