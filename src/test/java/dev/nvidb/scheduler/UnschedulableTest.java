package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.gpuWithForeign;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "Never" is said only from known GPU sizes, with the reason; anything unknown holds the job instead. */
class UnschedulableTest {

    private static final long CARD = 24 * GIB;
    private static final NodeCapacity TWO_CARDS = node("gpu-a", gpu(0, CARD), gpuWithForeign(1, CARD, CARD));
    private static final NodeCapacity ONE_CARD = node("gpu-b", gpu(0, 48 * GIB));

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("too big for every card", List.of(TWO_CARDS, ONE_CARD), job(1).vram(60 * GIB),
                        "unschedulable: no GPU can hold 61440 MiB: the largest, gpu-b GPU0, has 49152 MiB, "
                                + "48640 MiB after the 512 MiB headroom"),
                Arguments.of("too big once the headroom is kept", List.of(TWO_CARDS), job(1).vram(CARD),
                        "unschedulable: no GPU can hold 24576 MiB: the largest, gpu-a GPU0, has 24576 MiB, "
                                + "24064 MiB after the 512 MiB headroom"),
                Arguments.of("more GPUs than any node has", List.of(TWO_CARDS, ONE_CARD), job(1).gpus(4),
                        "unschedulable: needs 4 GPUs on one node; the most any node offers the queue is 2 (gpu-a)"),
                Arguments.of("enough GPUs, none of them big enough together", List.of(TWO_CARDS, ONE_CARD),
                        job(1).gpus(2).vram(30 * GIB),
                        "unschedulable: no node has 2 GPUs that can each hold 30720 MiB after the 512 MiB headroom "
                                + "(most: gpu-b has 1)"),
                Arguments.of("--node with an empty allowlist", List.of(TWO_CARDS, ONE_CARD.withGpuAllowlist(List.of())),
                        job(1).node("gpu-b"), "unschedulable: no GPU open to the queue on gpu-b (gpus: [])"),
                Arguments.of("--node with too few GPUs", List.of(TWO_CARDS, ONE_CARD), job(1).gpus(2).node("gpu-b"),
                        "unschedulable: node gpu-b offers 1 GPU to the queue; the job needs 2"),
                Arguments.of("--node with too few GPUs allowlisted", List.of(TWO_CARDS.withGpuAllowlist(List.of(1))),
                        job(1).gpus(2).node("gpu-a"),
                        "unschedulable: node gpu-a offers 1 GPU to the queue (gpus: [1]); the job needs 2"),
                Arguments.of("--node with too small GPUs", List.of(TWO_CARDS, ONE_CARD), job(1).vram(30 * GIB).node("gpu-a"),
                        "unschedulable: no GPU on gpu-a can hold 30720 MiB: the largest has 24576 MiB, "
                                + "24064 MiB after the 512 MiB headroom"),
                Arguments.of("--node too small for several GPUs", List.of(TWO_CARDS), job(1).gpus(2).vram(30 * GIB).node("gpu-a"),
                        "unschedulable: node gpu-a has 0 GPUs large enough for 30720 MiB after the 512 MiB headroom; "
                                + "the job needs 2"),
                Arguments.of("--node without GPUs", List.of(node("cpu-box")), job(1).node("cpu-box"),
                        "unschedulable: node cpu-box has no GPUs"),
                Arguments.of("no node offers a GPU", List.of(TWO_CARDS.withGpuAllowlist(List.of())), job(1),
                        "unschedulable: no node offers a GPU to the queue"),
                Arguments.of("only a silent node's last known cards, also too small",
                        List.of(TWO_CARDS, NodeCapacity.notAnswering("gpu-c", List.of(GpuCapacity.unknown(0, null, CARD)))),
                        job(1).vram(30 * GIB),
                        "unschedulable: no GPU can hold 30720 MiB: the largest, gpu-a GPU0, has 24576 MiB, "
                                + "24064 MiB after the 512 MiB headroom"),
                // Not "never": something that could hold the job is unknown or only temporarily unavailable.
                Arguments.of("a node that never answered could be big", List.of(TWO_CARDS, NodeCapacity.neverAnswered("gpu-c")),
                        job(1).vram(30 * GIB), "node gpu-c is not answering"),
                Arguments.of("a GPU of unknown size could be big",
                        List.of(node("gpu-a", gpu(0, CARD), GpuCapacity.unknown(1, null, null))), job(1).vram(30 * GIB),
                        "waiting for 30720 MiB on 1 GPU (no GPU that could hold it reports its state: gpu-a GPU1 unknown)"),
                Arguments.of("a silent node's last known card is big enough",
                        List.of(TWO_CARDS, NodeCapacity.notAnswering("gpu-c", List.of(GpuCapacity.unknown(0, null, 80 * GIB)))),
                        job(1).vram(30 * GIB), "node gpu-c is not answering"),
                Arguments.of("a drained node is big enough", List.of(TWO_CARDS, ONE_CARD.asDrained()), job(1).vram(30 * GIB),
                        "node gpu-b is drained"),
                Arguments.of("a big GPU outside the allowlist does not count",
                        List.of(TWO_CARDS, ONE_CARD.withGpuAllowlist(List.of(3))), job(1).vram(30 * GIB),
                        "unschedulable: no GPU can hold 30720 MiB: the largest, gpu-a GPU0, has 24576 MiB, "
                                + "24064 MiB after the 512 MiB headroom"),
                Arguments.of("a CPU-only job is never unschedulable", List.of(TWO_CARDS.withGpuAllowlist(List.of())),
                        job(1).gpus(0), "gpu-a:cpu"),
                Arguments.of("a full card is not 'never'", List.of(node("gpu-a", gpuWithForeign(0, CARD, CARD))), job(1).vram(GIB),
                        "waiting for 1024 MiB on 1 GPU (best: gpu-a GPU0 has 0 MiB free)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decidesNeverOnlyFromKnownGpus(String description, List<NodeCapacity> nodes, Fixtures.JobBuilder job,
                                       String expected) {
        assertEquals(expected, outcome(plan(nodes, job.pending()), 1));
    }
}
