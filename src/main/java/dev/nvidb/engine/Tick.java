package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.JobQuery;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.model.FailureClass;
import dev.nvidb.model.JobState;
import dev.nvidb.model.TickReport;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.scheduler.Plan;
import dev.nvidb.scheduler.Scheduler;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Database;
import dev.nvidb.store.GroupStore;
import dev.nvidb.store.JobFilter;
import dev.nvidb.store.JobStore;
import dev.nvidb.store.JobTransitions;
import dev.nvidb.store.NodeRecord;
import dev.nvidb.store.NodeStore;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.ProcessIdentity;
import dev.nvidb.store.ReapStore;
import dev.nvidb.store.ReapTarget;
import dev.nvidb.store.SqlWork;
import dev.nvidb.store.Expected;
import dev.nvidb.store.StoredJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One pass of the queue: probe every node at once (one exec each: GPUs, processes, the jobs
 * there, kills owed), settle what ended, plan with the pure scheduler, commit placements, then
 * launch (one more exec per node on the same connection) and record what started. Runs only
 * under the tick lease ({@link TickGuard}).
 */
final class Tick {

    private final Database database;
    private final QueueNodes nodes;
    private final TickSettings settings;
    private final Clock clock;
    private final JobStore jobs;
    private final NodeStore nodeStore;
    private final ReapStore reaps;
    private final Alerts alerts;
    private final Settler settler;
    private final ProbeRound round;

    Tick(Database database, QueueNodes nodes, TickSettings settings, Clock clock) {
        this.database = database;
        this.nodes = nodes;
        this.settings = settings;
        this.clock = clock;
        // Tolerant: a row damaged outside nvidb is that job's trouble, failed below, not every tick's.
        this.jobs = JobStore.tolerant(database);
        this.nodeStore = new NodeStore(database);
        this.reaps = new ReapStore(database);
        this.alerts = new Alerts(new AlertStore(database));
        this.settler = new Settler(database, alerts, settings.queue().failFast());
        this.round = new ProbeRound(settings.agent(), settings.nodeTimeout(), nodes.residents());
    }

    /**
     * Passes a tick may add when a launch lost its card to another queue's claim (docs/sharing.md):
     * each probes again, so the job is planned with the claim it lost to.
     */
    static final int REPLANS_AFTER_LOST = 2;

    TickReport run() {
        TickReport report = pass();
        for (int replans = 0; replans < REPLANS_AFTER_LOST && lostLaunches > 0; replans++) {
            TickReport again = pass();
            List<Long> settled = new ArrayList<>(report.settled());
            settled.addAll(again.settled());
            List<Long> started = new ArrayList<>(report.placed());
            started.addAll(again.placed());
            report = new TickReport(true, again.answered(), again.failed(), again.skipped(), settled, started,
                    report.duration().plus(again.duration()));
        }
        return report;
    }

    /** Launches of the last pass that lost their card to another queue's claim. */
    private int lostLaunches;

    private TickReport pass() {
        long start = System.nanoTime();
        Instant now = clock.instant();
        TickState state = failDamaged(load(), now);
        Map<Node, AgentRequest> requests = probeRequests(state, now);
        Map<String, NodeAnswer> answers = round.run(requests);
        List<String> skipped = nodes.names().stream()
                .filter(name -> requests.keySet().stream().noneMatch(node -> node.name().equals(name))).toList();
        Map<String, List<StoredJob>> relaunch = new LinkedHashMap<>();
        List<Long> settled = new ArrayList<>();
        Set<Long> told = new HashSet<>();
        for (NodeAnswer answer : answers.values()) {
            // A failure's back-off counts from when it was seen: a hung node took its whole timeout.
            record(answer, state, answer.answered() ? now : clock.instant());
            if (answer.answered() && answer.reply().agentAnswered()) {
                Settler.Outcome outcome = settler.settle(answer.node(), answer.reply(), state.runningOn(answer.node()), now);
                settled.addAll(outcome.ended());
                relaunch.put(answer.node(), outcome.relaunch());
                told.addAll(Reaper.toldAbout(answer, state.runningOn(answer.node())));
                settler.reaped(answer.node(), answer.reply(), state.reapsOn(answer.node()), now);
            }
        }
        giveUpOnSkipped(skipped, state, now);
        Reaper reaper = new Reaper(database, nodes, settings, clock);
        List<Long> cancelled = reaper.cancelOwed(told, now);
        if (!cancelled.isEmpty()) {
            // Their kills go now, not with the next probe: the person who cancelled waits for this pass.
            reaper.reapNow(answered(answers));
        }
        settled.addAll(cancelled);
        relaunch.values().forEach(jobs -> jobs.removeIf(job -> cancelled.contains(job.id())));
        Planned planned = plan(answers, now);
        Placements placements = new Placements(database, nodes, settings, alerts, clock);
        // Placed now, not when the tick began: the plan also places jobs submitted during the probe.
        Map<String, List<Placements.Launch>> placed = placements.commit(planned.plan(), planned.seen(),
                clock.instant());
        Launches launches = new Launches(database, settings, alerts, round, clock);
        List<Long> started = launches.run(nodes, answers, placed, relaunch, demandAfter(state, placed));
        lostLaunches = launches.lost();
        return new TickReport(true, answered(answers), failed(answers), skipped, settled, started,
                Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * A pending job whose row cannot be read whole (a JSON column changed outside nvidb) is
     * failed with what is wrong and an alert, instead of being launched without it or failing
     * the tick; a running one is still watched (its process and files need none of it).
     */
    private TickState failDamaged(TickState state, Instant now) {
        List<StoredJob> damaged = state.active().stream()
                .filter(job -> job.damage() != null && job.job().state() == JobState.PENDING).toList();
        if (damaged.isEmpty()) {
            return state;
        }
        for (StoredJob job : damaged) {
            String why = "cannot launch: its row in queue.db is damaged: " + job.damage();
            database.write("fail damaged job " + job.id(), conn -> {
                if (new JobTransitions(database).finish(conn, job.id(), Expected.of(job.job()), JobState.FAILED, null,
                        why, FailureClass.LAUNCH, now)) {
                    alerts.jobFailed(job.id(), job.job().attempt(), null, "job " + job.id() + " " + why, null, now)
                            .run(conn);
                }
                return null;
            });
        }
        return load();
    }

    private TickState load() {
        return database.read("read the queue", conn -> {
            List<StoredJob> active = jobs.listJobs(conn, JobFilter.active());
            Map<String, NodeRecord> records = nodeStore.listNodes(conn).stream()
                    .collect(Collectors.toMap(NodeRecord::name, Function.identity()));
            List<PendingReap> owed = reaps.list(conn, null);
            return new TickState(active, records, owed);
        });
    }

    /**
     * What this queue waits for on each node once {@code placed} start: the demand its probe
     * published, less the jobs this pass placed on any node (a job that lost its card counts
     * again from the next probe).
     */
    private static java.util.function.Function<String, AgentRequest.Demand> demandAfter(
            TickState state, Map<String, List<Placements.Launch>> placed) {
        Set<Long> placedIds = new HashSet<>();
        placed.values().forEach(launches -> launches.forEach(launch -> placedIds.add(launch.job().id())));
        List<dev.nvidb.model.Job> activeJobs = state.active().stream().filter(job -> job.damage() == null)
                .map(StoredJob::job).filter(job -> !placedIds.contains(job.id())).toList();
        Set<Long> activeIds = NodeShares.ids(activeJobs);
        return node -> NodeShares.demand(node, activeJobs, activeIds);
    }

    /** One request per node to contact: not ignored, not backing off after failures. */
    private Map<Node, AgentRequest> probeRequests(TickState state, Instant now) {
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        QueueConfig queue = settings.queue();
        List<dev.nvidb.model.Job> activeJobs = state.active().stream().filter(job -> job.damage() == null)
                .map(StoredJob::job).toList();
        java.util.Set<Long> activeIds = NodeShares.ids(activeJobs);
        for (Node node : nodes.nodes()) {
            NodeRecord record = state.node(node.name()).orElse(null);
            if (record != null && (record.ignored()
                    || record.backingOff(now, Duration.ofSeconds(queue.backoffMaxSeconds())))) {
                continue;
            }
            List<JobQuery> queries = new ArrayList<>();
            for (StoredJob job : state.runningOn(node.name())) {
                queries.add(new JobQuery(job.id(), job.job().attempt(), job.job().assignment().launchToken(),
                        job.jobDir(), recorded(job.process())));
            }
            queries.addAll(unidentifiedReaps(state.reapsOn(node.name())));
            AgentRequest plain = nodes.request(node.name());
            AgentRequest.Demand waiting = NodeShares.demand(node.name(), activeJobs, activeIds);
            requests.put(node, plain.withClaims(plain.claims().withDemand(waiting)).withJobs(queries)
                    .withKills(Launches.kills(state.reapsOn(node.name()), queue))
                    .withLogTailLines(queue.logTailLines()));
        }
        return requests;
    }

    /** The process recorded at launch, sent with the job's query so its liveness never depends on its files. */
    private static JobQuery.Process recorded(ProcessIdentity process) {
        return process == null || process.startTime() == null ? null
                : new JobQuery.Process(process.pid(), process.pgid(), process.startTime(), process.bootId());
    }

    /** Kills owed by launch token only are asked about like jobs, to learn their process. */
    private static List<JobQuery> unidentifiedReaps(List<PendingReap> owed) {
        List<JobQuery> queries = new ArrayList<>();
        for (PendingReap reap : owed) {
            ReapTarget target = reap.target();
            // Without an attempt (an old row whose directory the queue did not make) the reap stays owed.
            if (target.process() == null && target.jobId() != null && target.attempt() != null
                    && target.jobDir() != null && target.launchToken() != null) {
                queries.add(new JobQuery(target.jobId(), target.attempt(), target.launchToken(), target.jobDir()));
            }
        }
        return queries;
    }

    /** Node bookkeeping: last answer, or failure with back-off; running jobs there verified or not. */
    private void record(NodeAnswer answer, TickState state, Instant now) {
        String name = answer.node();
        if (answer.answered() && answer.reply().agentAnswered()) {
            database.write("record node " + name, conn -> {
                nodeStore.recordAnswer(conn, name, answer.raw(), answer.reply().snapshot().info().bootId(), now);
                new JobTransitions(database).markVerified(conn, name, now);
                return null;
            });
            return;
        }
        String why = answer.answered() ? name + ": python3 is missing on the node; the queue needs it there"
                : answer.failure();
        Instant lastSeen = state.node(name).map(NodeRecord::lastSeenAt).orElse(null);
        database.write("record node " + name, conn -> {
            nodeStore.recordFailure(conn, name, why, now, this::backoff);
            new JobTransitions(database).markUnverified(conn, name, now);
            alerts.nodeDown(name, lastSeen, "node " + name + " is not answering: " + why, now).run(conn);
            for (StoredJob job : state.runningOn(name)) {
                giveUp(job, name, now).run(conn);
            }
            return null;
        });
    }

    /**
     * Nodes backing off are not contacted, but their jobs still age: lost_after_seconds counts
     * from the first failure, not from the next probe the back-off allows.
     */
    private void giveUpOnSkipped(List<String> skipped, TickState state, Instant now) {
        for (String name : skipped) {
            NodeRecord record = state.node(name).orElse(null);
            if (record == null || record.ignored() || state.runningOn(name).isEmpty()) {
                continue;
            }
            database.write("record node " + name, conn -> {
                for (StoredJob job : state.runningOn(name)) {
                    giveUp(job, name, now).run(conn);
                }
                return null;
            });
        }
    }

    /**
     * A job whose node has been unreachable for {@code lost_after_seconds} is called lost, so
     * nobody waits for it forever; a kill is recorded in case the node returns with it running.
     */
    private SqlWork<Boolean> giveUp(StoredJob job, String node, Instant now) {
        return conn -> {
            int after = settings.queue().lostAfterSeconds();
            Instant since = job.unverifiedSince();
            if (after <= 0 || since == null || since.plusSeconds(after).isAfter(now)) {
                return false;
            }
            String why = "node " + node + " has not answered since " + since + " (lost_after_seconds: " + after + ")";
            if (!new JobTransitions(database).finish(conn, job.id(), Expected.of(job.job()), JobState.LOST, null, why,
                    now)) {
                return false;
            }
            reaps.add(conn, new ReapTarget(node, job.process(), job.id(), job.job().assignment().attempt(),
                    job.job().assignment().launchToken(), job.jobDir()), "lost while its node was unreachable", now);
            return alerts.jobLost(job.id(), job.job().attempt(), node, "job " + job.id() + " (" + job.job().spec().name()
                    + ") lost: " + why, null, now).run(conn);
        };
    }

    /** 5 s after the first failure, doubling, capped at backoff_max_seconds. */
    private Duration backoff(int failures) {
        long seconds = 5L << Math.min(20, Math.max(0, failures - 1));
        return Duration.ofSeconds(Math.min(seconds, settings.queue().backoffMaxSeconds()));
    }

    /** A plan and the jobs as the planner saw them: the commit compares against these. */
    record Planned(Plan plan, Map<Long, dev.nvidb.model.Job> seen) {
    }

    private Planned plan(Map<String, NodeAnswer> answers, Instant now) {
        return database.read("plan", conn -> {
            PlanningInput input = PlanningInput.read(jobs, nodeStore, new GroupStore(database), nodes, settings,
                    (name, record) -> {
                        NodeAnswer answer = answers.get(name);
                        return answer != null && answer.answered() && answer.reply().agentAnswered() ? answer.reply() : null;
                    }).run(conn);
            Plan plan = Scheduler.plan(input.queue(), input.nodes(), input.policy(), now);
            return new Planned(input.nodes().isEmpty() && !input.ignored().isEmpty()
                    ? allIgnored(plan, input.ignored()) : plan, input.seen());
        });
    }

    /** With every node ignored, "no queue nodes" would mislead: say which are ignored. */
    private static Plan allIgnored(Plan plan, List<String> ignored) {
        String reason = Scheduler.everyNodeIgnored(ignored);
        Map<Long, String> reasons = new HashMap<>();
        plan.pendingReasons().keySet().forEach(id -> reasons.put(id, reason));
        return new Plan(plan.placements(), reasons, plan.unschedulable(), plan.dependencyFailed(), plan.timedOut());
    }

    private static List<String> answered(Map<String, NodeAnswer> answers) {
        return answers.values().stream().filter(NodeAnswer::answered).map(NodeAnswer::node).toList();
    }

    private static List<String> failed(Map<String, NodeAnswer> answers) {
        return answers.values().stream().filter(answer -> !answer.answered())
                .map(answer -> answer.failure()).toList();
    }
}
