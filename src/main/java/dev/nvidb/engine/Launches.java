package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.KillReport;
import dev.nvidb.agent.KillRequest;
import dev.nvidb.agent.LaunchReport;
import dev.nvidb.agent.LaunchRequest;
import dev.nvidb.agent.RunScript;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.error.NvidbException;
import dev.nvidb.model.FailureClass;
import dev.nvidb.model.JobState;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.store.Database;
import dev.nvidb.store.Expected;
import dev.nvidb.store.JobAnnotations;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.ProcessIdentity;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.StoredJob;
import dev.nvidb.store.SubmitEnvironments;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The second exec of a tick, per node that answered: start what the plan placed (and launches
 * that never happened), and kill what is owed a kill. Launches are idempotent on their token,
 * so a retried launch adopts the process instead of starting a second one. A job on the local
 * node runs with the environment recorded at its submit, not this client's. A node that fails
 * here leaves its placements running-without-process; the next probe tells what happened.
 */
final class Launches {

    /** Failed launches in a row after which a job is held. */
    static final int HOLD_AFTER = 2;

    private final Database database;
    private final TickSettings settings;
    private final Alerts alerts;
    private final ProbeRound round;
    private final Clock clock;

    private final JobTransitions transitions;
    private final ReapStore reaps;
    private final JobStore jobs;
    private final JobAnnotations annotations;
    private final SubmitEnvironments environments;

    Launches(Database database, TickSettings settings, Alerts alerts, ProbeRound round, Clock clock) {
        this.database = database;
        this.settings = settings;
        this.alerts = alerts;
        this.round = round;
        this.clock = clock;
        this.transitions = new JobTransitions(database);
        this.reaps = new ReapStore(database);
        this.jobs = new JobStore(database);
        this.annotations = new JobAnnotations(database);
        this.environments = new SubmitEnvironments(database);
    }

    /** {@link #run(QueueNodes, Map, Map, Map, java.util.function.Function)} that publishes no demand. */
    List<Long> run(QueueNodes nodes, Map<String, NodeAnswer> answers, Map<String, List<Placements.Launch>> placed,
                   Map<String, List<StoredJob>> relaunch) {
        return run(nodes, answers, placed, relaunch, node -> null);
    }

    /**
     * Launches and kills on every answering node; returns the ids of jobs now started. Each node's
     * request also carries {@code demandAfter}: what this queue still waits for there once these
     * jobs are placed (docs/sharing.md), so the demand the probe published stops counting them.
     */
    List<Long> run(QueueNodes nodes, Map<String, NodeAnswer> answers, Map<String, List<Placements.Launch>> placed,
                   Map<String, List<StoredJob>> relaunch,
                   java.util.function.Function<String, AgentRequest.Demand> demandAfter) {
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        Map<String, List<Placements.Launch>> byNode = new LinkedHashMap<>();
        Map<String, List<PendingReap>> owed = new LinkedHashMap<>();
        QueueConfig queue = settings.queue();
        for (Node node : nodes.nodes()) {
            NodeAnswer answer = answers.get(node.name());
            if (answer == null || !answer.answered() || !answer.reply().agentAnswered()) {
                continue;
            }
            List<Placements.Launch> launches = new ArrayList<>(placed.getOrDefault(node.name(), List.of()));
            relaunch.getOrDefault(node.name(), List.of()).forEach(job -> launches.add(
                    new Placements.Launch(job.job(), job.job().assignment(), job.jobDir())));
            List<PendingReap> reapsHere = reaps.list(node.name());
            if (launches.isEmpty() && reapsHere.isEmpty()) {
                continue;
            }
            List<LaunchRequest> starts = new ArrayList<>();
            List<Placements.Launch> kept = new ArrayList<>();
            for (Placements.Launch launch : launches) {
                try {
                    starts.add(launchRequest(launch, nodes.slurm(node.name()) != null,
                            node.local() ? environments.find(launch.job().id()).orElse(null) : null,
                            NodeShares.cap(answer.reply().snapshot().claims())));
                    kept.add(launch);
                } catch (RuntimeException e) {
                    // A row the submit would refuse (written by an older version or by hand): that job
                    // fails with its reason; the others on this node still start.
                    cannotLaunch(node.name(), launch, e);
                }
            }
            if (starts.isEmpty() && reapsHere.isEmpty()) {
                continue;
            }
            AgentRequest request = nodes.request(node.name()).withoutSnapshot();
            AgentRequest.Demand left = demandAfter.apply(node.name());
            if (left != null && request.claims() != null) {
                request = request.withClaims(request.claims().withDemand(left));
            }
            requests.put(node, request.withLaunches(starts).withKills(kills(reapsHere, queue)));
            byNode.put(node.name(), kept);
            owed.put(node.name(), reapsHere);
        }
        Map<String, NodeAnswer> results = round.run(requests);
        List<Long> started = new ArrayList<>();
        List<String> cancelledMeanwhile = new ArrayList<>();
        for (NodeAnswer result : results.values()) {
            if (result.answered()) {
                started.addAll(record(result, byNode.get(result.node()), owed.get(result.node()), cancelledMeanwhile));
            }
        }
        if (!cancelledMeanwhile.isEmpty()) {
            new Reaper(database, nodes, settings, clock).reapNow(cancelledMeanwhile);
        }
        return started;
    }

    /**
     * The launch of one placement: its {@code run.sh} (for a Slurm node, with the GPUs Slurm gives), and
     * what Slurm is asked for ({@code --gres}, {@code --time}, the name in {@code --comment}).
     */
    private static LaunchRequest launchRequest(Placements.Launch launch, boolean slurm,
                                               java.util.Map<String, String> environment, LaunchRequest.Cap cap) {
        long id = launch.job().id();
        dev.nvidb.model.JobSpec spec = launch.job().spec();
        String script = slurm ? RunScript.renderForSlurm(id, spec, launch.assignment())
                : RunScript.render(id, spec, launch.assignment(), environment);
        LaunchRequest.Claim claim = slurm ? LaunchRequest.Claim.NONE : new LaunchRequest.Claim(
                launch.assignment().gpuUuids(), spec.vramMb(), spec.policy().exclusive(), spec.timeoutSeconds(), cap);
        return new LaunchRequest(id, launch.assignment().attempt(), launch.assignment().launchToken(), launch.dir(),
                script, new LaunchRequest.SlurmAsk(spec.gpus(), spec.timeoutSeconds(), spec.name()), claim);
    }

    /** Kill requests for the reaps whose process is known (pid, start time and boot id). */
    static List<KillRequest> kills(List<PendingReap> owed, QueueConfig queue) {
        List<KillRequest> kills = new ArrayList<>();
        for (PendingReap reap : owed) {
            ProcessIdentity process = reap.target().process();
            if (process != null && process.startTime() != null && reap.target().jobDir() != null) {
                kills.add(new KillRequest(reap.id(), reap.target().jobDir(), process.pid(), process.startTime(),
                        process.bootId(), queue.killGraceSeconds()).withToken(reap.target().launchToken()));
            }
        }
        return kills;
    }

    private List<Long> record(NodeAnswer result, List<Placements.Launch> launches, List<PendingReap> owed,
                              List<String> cancelledMeanwhile) {
        Instant now = clock.instant();
        List<Long> started = new ArrayList<>();
        for (Placements.Launch launch : launches) {
            LaunchReport report = result.reply().findLaunch(launch.job().id()).orElse(null);
            if (report == null) {
                continue;
            }
            long id = launch.job().id();
            int attempt = launch.assignment().attempt();
            if (report.outcome() == LaunchReport.Outcome.LOST) {
                launchLost(result.node(), id, attempt, report.error(), now);
            } else if (report.outcome() == LaunchReport.Outcome.FAILED) {
                launchFailed(result.node(), id, attempt, report.error(), now);
            } else if (transitions.recordProcess(id, attempt, Settler.identity(report.wrapper()), now)) {
                started.add(id);
            } else if (reaps.identify(result.node(), launch.assignment().launchToken(),
                    Settler.identity(report.wrapper()))) {
                // Cancelled or requeued while it was being launched: its kill now knows the process.
                cancelledMeanwhile.add(result.node());
            }
        }
        for (PendingReap reap : owed) {
            result.reply().findKill(reap.id()).ifPresent(kill -> {
                if (kill.outcome() == KillReport.Outcome.ERROR) {
                    reaps.recordAttempt(reap.id(), kill.reason(), now);
                } else {
                    reaps.complete(reap.id(), now);
                }
            });
        }
        return started;
    }

    /**
     * A job whose {@code run.sh} cannot be made (its row breaks what the submit checks): it fails
     * now with the reason and an alert, instead of failing every tick. Nothing was started.
     */
    private void cannotLaunch(String node, Placements.Launch launch, RuntimeException cause) {
        long id = launch.job().id();
        int attempt = launch.assignment().attempt();
        String why = "cannot launch: " + (cause.getMessage() == null ? cause.toString() : cause.getMessage());
        Instant now = clock.instant();
        try {
            database.write("fail job " + id, conn -> {
                if (transitions.finish(conn, id, new Expected(JobState.RUNNING, attempt), JobState.FAILED, null, why,
                        FailureClass.LAUNCH, now)) {
                    alerts.jobFailed(id, attempt, node, "job " + id + " (" + launch.job().spec().name() + ") " + why,
                            null, now).run(conn);
                }
                return null;
            });
        } catch (NvidbException e) {
            // The job stays placed without a process; the next tick finds it missing and tries again.
        }
    }

    /** Launches of the last {@link #run} that lost their card to another queue's claim. */
    int lost() {
        return lost;
    }

    private int lost;

    /**
     * A launch the node refused because the job no longer fits its GPUs (another queue claimed
     * them since this tick's probe): nothing started, so the job is pending again with the reason,
     * never failed, held or alerted; the tick plans it once more (docs/sharing.md).
     */
    private void launchLost(String node, long id, int attempt, String error, Instant now) {
        String why = "launch on " + node + " " + error + "; planned again";
        try {
            database.write("record lost launch of job " + id, conn -> {
                if (transitions.launchLost(conn, id, attempt, why, now)) {
                    lost++;
                }
                return null;
            });
        } catch (NvidbException e) {
            // Recording is retried by the next tick, which finds the attempt missing on the node.
        }
    }

    /**
     * A launch that failed for sure (nothing started): back to pending, with a warning. A job
     * whose launch failed {@link #HOLD_AFTER} times in a row (the store counts them) is also held,
     * so a broken node or disk cannot make it loop; {@code job requeue} releases it.
     */
    private void launchFailed(String node, long id, int attempt, String error, Instant now) {
        String why = "launch failed on " + node + ": " + error;
        try {
            database.write("record failed launch of job " + id, conn -> {
                if (transitions.launchFailed(conn, id, attempt, why, now)) {
                    alerts.launchFailed(id, attempt, node, "job " + id + " could not start on " + node + ": " + error,
                            now).run(conn);
                    if (jobs.getJob(conn, id).launchFailures() >= HOLD_AFTER) {
                        annotations.hold(conn, id, "its launch failed twice (" + why + "); release it with"
                                + " 'nvidb job requeue " + id + "'", now);
                    }
                }
                return null;
            });
        } catch (NvidbException e) {
            // Recording is retried by the next tick, which finds the attempt missing on the node.
        }
    }
}
