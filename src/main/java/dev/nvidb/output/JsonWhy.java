package dev.nvidb.output;

import dev.nvidb.queue.WhyView;
import dev.nvidb.scheduler.Explanation;
import dev.nvidb.scheduler.GpuBudget;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * The {@code job why --json} document (docs/json.md): the job, and for a pending one the
 * scheduler's outcome, its blockers, its dependencies, every node and GPU with the budget's
 * figures, and where it would fit first. Kinds are snake_case keys of their enums.
 */
public final class JsonWhy {

    private JsonWhy() {
    }

    /** The document; the explanation's fields are null (lists empty) when {@code explained} is false. */
    public record Document(int schemaVersion, boolean ok, JsonJob job, boolean explained, BigDecimal at,
                           String outcome, String reason, Needs needs, Policy policy, List<Blocker> blockers,
                           List<Dependency> dependencies, List<Node> nodes, Fit fit) {
    }

    /** What the job asks for. */
    public record Needs(int gpus, long vramMb, String node) {
    }

    /** The policy it was judged under. */
    public record Policy(long headroomMb, String placement, int maxJobsPerGpu, int maxCpuJobsPerNode) {
    }

    public record Blocker(String kind, String message, List<Long> jobIds) {
    }

    public record Dependency(long jobId, String needs, String state, boolean held, String verdict) {
    }

    public record Node(String node, String verdict, String message, String status, boolean drained,
                       BigDecimal lastSeenAt, int cpuJobs, int fittingGpus, List<Gpu> gpus) {
    }

    /**
     * One GPU: {@code free_mb = total − external − queue_charged − headroom − planned}, what the job
     * may reserve here now; every figure null when the GPU's state is unknown.
     */
    public record Gpu(int index, String uuid, String state, Long totalMb, Long externalMb, Long queueReservedMb,
                      Long queueChargedMb, Long plannedMb, Long headroomMb, Long freeMb, int jobs, Long keptFor,
                      String verdict, String message, List<String> claims) {
    }

    public record Fit(String verdict, String node, List<Integer> gpuIds, List<String> gpuUuids, List<Long> keptFor,
                      String message) {
    }

    public static Document of(JsonJob job, WhyView view) {
        BigDecimal at = JsonJob.seconds(view.at());
        Explanation explanation = view.explanation();
        if (explanation == null) {
            return new Document(Json.SCHEMA_VERSION, true, job, false, at, null, null, null, null, List.of(), List.of(),
                    List.of(), null);
        }
        var policy = explanation.policy();
        return new Document(Json.SCHEMA_VERSION, true, job, true, at, explanation.outcome().key(),
                explanation.reason(), new Needs(explanation.gpus(), explanation.vramMb(), explanation.node()),
                new Policy(policy.headroomMb(), policy.placement().name().toLowerCase(Locale.ROOT),
                        policy.maxJobsPerGpu(), policy.maxCpuJobsPerNode()),
                explanation.blockers().stream().map(b -> new Blocker(b.kind().key(), b.message(), b.jobIds())).toList(),
                explanation.dependencies().stream().map(d -> new Dependency(d.jobId(),
                        d.needsSuccess() ? "success" : "end", d.state() == null ? null : d.state().key(), d.held(),
                        d.verdict().key())).toList(),
                explanation.nodes().stream().map(node -> node(node, view, policy.headroomMb())).toList(),
                fit(explanation.fit()));
    }

    private static Node node(Explanation.NodeVerdict node, WhyView view, long headroomMb) {
        return new Node(node.node(), node.kind().key(), node.message(),
                node.status() == null ? null : node.status().name().toLowerCase(Locale.ROOT), node.drained(),
                JsonJob.seconds(view.lastSeen().get(node.node())), node.cpuJobs(), node.fitting(),
                node.gpus().stream().map(gpu -> gpu(gpu, headroomMb)).toList());
    }

    private static Gpu gpu(Explanation.GpuVerdict gpu, long headroomMb) {
        GpuBudget budget = gpu.budget();
        boolean known = budget != null;
        return new Gpu(gpu.index(), gpu.uuid(), gpu.state().name().toLowerCase(Locale.ROOT), gpu.totalMb(),
                known ? budget.externalMb() : null, known ? budget.reservedMb() : null,
                known ? budget.chargedMb() : null, known ? gpu.plannedMb() : null, known ? headroomMb : null,
                gpu.freeMb(), gpu.jobs(), gpu.keptFor(), gpu.kind().key(), gpu.message(), gpu.claims());
    }

    private static Fit fit(Explanation.Fit fit) {
        return new Fit(fit.kind().key(), fit.node(), fit.gpuIndices(), fit.gpuUuids(), fit.keptFor(), fit.message());
    }
}
