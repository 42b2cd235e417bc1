package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.ProbeReply;
import dev.nvidb.agent.ProcessSession;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.scheduler.GpuBudget;
import dev.nvidb.scheduler.GpuCapacity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Other queues' claims as the scheduler sees them (docs/sharing.md): each is charged the larger of
 * what it reserved and what its job uses, never twice; the asking queue's own claims are not
 * foreign; a whole-card claim leaves nothing free.
 */
class ForeignClaimsTest {

    private static final String GPU = "GPU-x";

    private static GpuClaim claim(long mib, long usedMib, boolean own, boolean exclusive) {
        return new GpuClaim("alice", 1001, own ? "mine" : "theirs", "laptop", 12, List.of(GPU), mib, exclusive,
                Map.of(GPU, usedMib), own);
    }

    /** A 24 GiB card with {@code used} MiB in use, of which {@code claimedProcessMib} by a process in session 500. */
    private static GpuCapacity capacity(long used, long claimedProcessMib, GpuClaim... claims) {
        List<GpuProcess> processes = claimedProcessMib == 0 ? List.of()
                : List.of(new GpuProcess(501, "compute", claimedProcessMib, "alice", "python", "python train.py"));
        GpuSnapshot gpu = new GpuSnapshot(0, GPU, null, "RTX", 24576L, used, 24576L - used, null, null, null, null,
                null, null, processes);
        NodeSnapshot snapshot = new NodeSnapshot(GpuSource.NVML, null, NodeInfo.unknown(), null, null, List.of(gpu),
                new NodeClaims("/tmp/nvidb-claims", null, List.of(), List.of(claims)));
        ProbeReply reply = new ProbeReply(snapshot, true, List.of(), Map.of(501L, new ProcessSession(500, 500)),
                List.of(), List.of(), List.of());
        return Capacities.answered("node", reply, List.of()).gpus().get(0);
    }

    private static long free(GpuCapacity gpu) {
        return GpuBudget.of("node", gpu, List.of(), 0).freeMb();
    }

    @Test
    void aClaimNotYetAllocatedIsChargedWhole() {
        GpuCapacity gpu = capacity(0, 0, claim(16384, 0, false, false));
        assertEquals(16384, gpu.externalMb());
        assertEquals(8192, free(gpu));
        assertEquals(1, gpu.claims().size());
        assertTrue(gpu.claims().get(0).describe(GPU).equals("alice: 16.0G reserved, job 12 of queue laptop"),
                gpu.claims().get(0).describe(GPU));
    }

    @Test
    void aClaimWhoseJobAllocatedPartIsChargedItsReservationOnce() {
        GpuCapacity gpu = capacity(6000, 6000, claim(16384, 6000, false, false));
        assertEquals(16384, gpu.externalMb(), "6000 measured + 10384 not yet allocated");
    }

    @Test
    void aJobUsingMoreThanItsClaimIsChargedItsUse() {
        GpuCapacity gpu = capacity(20000, 20000, claim(16384, 20000, false, false));
        assertEquals(20000, gpu.externalMb());
    }

    @Test
    void theQueuesOwnClaimIsNotForeign() {
        GpuCapacity gpu = capacity(0, 0, claim(16384, 0, true, false));
        assertEquals(0, gpu.externalMb());
        assertEquals(List.of(), gpu.claims());
    }

    @Test
    void aWholeCardClaimLeavesNothingFree() {
        GpuCapacity gpu = capacity(0, 0, claim(0, 0, false, true));
        assertEquals(24576, gpu.externalMb());
        assertEquals(0, free(gpu));
    }

    @Test
    void memoryNoProcessExplainsStillCountsBesideAClaim() {
        GpuCapacity gpu = capacity(3000, 0, claim(8192, 0, false, false));
        assertEquals(3000 + 8192, gpu.externalMb());
    }
}
