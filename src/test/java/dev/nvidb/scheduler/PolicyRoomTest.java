package dev.nvidb.scheduler;

import static dev.nvidb.scheduler.Fixtures.GIB;
import static dev.nvidb.scheduler.Fixtures.gpu;
import static dev.nvidb.scheduler.Fixtures.job;
import static dev.nvidb.scheduler.Fixtures.node;
import static dev.nvidb.scheduler.Fixtures.outcome;
import static dev.nvidb.scheduler.Fixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.QueueDemand;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node's sharing policy in the plan (docs/sharing.md): a cap on the queue's user holds over every
 * placement of one plan, and under fair share the plan leaves room for the smallest waiting job of
 * each user ahead, where that job fits now.
 */
class PolicyRoomTest {

    private static final String CAP = "the node's policy caps alice at 1 GPU there and they hold 0 GPUs";

    private static PolicyRoom gpusLeft(int gpus) {
        return new PolicyRoom(gpus, Long.MAX_VALUE, CAP, List.of());
    }

    private static QueueDemand bob(int gpus, long mib) {
        return new QueueDemand("bob", 1002, "q-bob", "desk", 1, gpus, mib, false, 1_000, false);
    }

    @Test
    void aGpuCapHoldsOverEveryPlacementOfOnePlan() {
        NodeCapacity capped = node("gpu-a", gpu(0, 24 * GIB), gpu(1, 24 * GIB)).withRoom(gpusLeft(1));
        NodeCapacity open = node("gpu-b", gpu(0, 24 * GIB), gpu(1, 24 * GIB));
        Plan plan = plan(List.of(capped, open), job(1).vram(GIB).pending(), job(2).vram(GIB).pending(),
                job(3).vram(GIB).pending());
        assertEquals("gpu-a:0", outcome(plan, 1));
        assertEquals("gpu-b:0", outcome(plan, 2), "gpu-a's room is spent");
        assertEquals("gpu-b:1", outcome(plan, 3));
    }

    @Test
    void aJobEveryCapKeepsOffSaysWhichCap() {
        NodeCapacity capped = node("gpu-a", gpu(0, 24 * GIB), gpu(1, 24 * GIB)).withRoom(gpusLeft(1));
        Plan plan = plan(List.of(capped), job(1).gpus(2).vram(GIB).pending(), job(2).vram(GIB).pending());
        assertEquals("waiting for room under the node policy (gpu-a: " + CAP + ")", outcome(plan, 1));
        assertEquals("gpu-a:0", outcome(plan, 2), "a one-GPU job fits the cap, and nothing was kept for job 1");
    }

    @Test
    void aVramCapCountsEachGpusReservation() {
        NodeCapacity capped = node("gpu-a", gpu(0, 24 * GIB), gpu(1, 24 * GIB))
                .withRoom(new PolicyRoom(Integer.MAX_VALUE, 20 * GIB, "caps alice at 20.0G", List.of()));
        Plan plan = plan(List.of(capped), job(1).vram(16 * GIB).pending(), job(2).vram(16 * GIB).pending(),
                job(3).vram(4 * GIB).pending());
        assertEquals("gpu-a:0", outcome(plan, 1));
        assertTrue(outcome(plan, 2).startsWith("waiting for room under the node policy"), outcome(plan, 2));
        assertEquals("gpu-a:1", outcome(plan, 3), "16 + 4 GiB is still under 20");
    }

    @Test
    void fairShareLeavesRoomForTheSmallestJobOfAUserAhead() {
        NodeCapacity shared = node("gpu-a", gpu(0, 24 * GIB), gpu(1, 24 * GIB))
                .withRoom(new PolicyRoom(Integer.MAX_VALUE, Long.MAX_VALUE, null, List.of(bob(1, 16 * GIB))));
        Plan plan = plan(List.of(shared), job(1).vram(16 * GIB).pending(), job(2).vram(16 * GIB).pending());
        assertEquals("gpu-a:1", outcome(plan, 1), "GPU0 is held for bob");
        String reason = outcome(plan, 2);
        assertTrue(reason.startsWith("waiting for 16384 MiB on 1 GPU") && reason.contains("bob: 16.0G held for a waiting job"
                + " of queue desk (node policy share: fair; bob is further below their share)"), reason);
    }

    @Test
    void aWaitingJobThatFitsNowhereHoldsNothing() {
        NodeCapacity shared = node("gpu-a", gpu(0, 24 * GIB), gpu(1, 24 * GIB))
                .withRoom(new PolicyRoom(Integer.MAX_VALUE, Long.MAX_VALUE, null, List.of(bob(1, 30 * GIB), bob(3, GIB))));
        Plan plan = plan(List.of(shared), job(1).vram(16 * GIB).pending(), job(2).vram(16 * GIB).pending());
        assertEquals("gpu-a:0", outcome(plan, 1));
        assertEquals("gpu-a:1", outcome(plan, 2), "no card idles for a job that could not use it");
    }
}
