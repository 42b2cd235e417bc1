package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.LaunchRequest;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.scheduler.GpuCapacity;
import dev.nvidb.scheduler.NodeCapacity;
import dev.nvidb.scheduler.PolicyRoom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node's policy as the queue plans with it (docs/sharing.md): caps count every claim of the
 * queue's user there, fair share puts first the users further below their weighted share, and
 * what a queue publishes as waiting is its ready GPU jobs for that node.
 */
class NodeSharesTest {

    private static final NodeClaims.User ALICE = new NodeClaims.User(1001, "alice");
    private static final NodeCapacity NODE = NodeCapacity.answered("gpu-a", List.of(
            GpuCapacity.measured(0, "GPU-0", 24576, 0, 0, Map.of()), GpuCapacity.measured(1, "GPU-1", 24576, 0, 0, Map.of())));

    private static GpuClaim claim(String user, int uid, String queue, String uuid, long mib, boolean own) {
        return new GpuClaim(user, uid, queue, queue + "-host", 7, List.of(uuid), mib, false, Map.of(), own);
    }

    private static QueueDemand waiting(String user, int uid, String queue, long mib, long oldestAt) {
        return new QueueDemand(user, uid, queue, queue + "-host", 2, 1, mib, false, oldestAt, false);
    }

    private static NodeClaims node(String policy, List<GpuClaim> live, List<QueueDemand> demand) {
        return new NodeClaims("/tmp/nvidb-claims", null, List.of(), live, demand, policy, null, ALICE);
    }

    private static Job pending(long id, long mib, long submittedAt) {
        return pending(id, new JobSpec("job-" + id, "true", 1, mib, null, null, Map.of(), List.of(), null, 0, List.of(),
                "alice@laptop"), submittedAt);
    }

    private static Job pending(long id, JobSpec spec, long submittedAt) {
        return new Job(id, spec, new JobStatus.Pending(null), 0, Instant.ofEpochSecond(submittedAt), 0, null, null,
                null, null);
    }

    @Test
    void capsCountEveryClaimOfTheUserFromAnyOfTheirQueues() {
        NodeClaims claims = node("users:\n  alice:\n    max_gpus: 2\n    max_vram: 40G\n", List.of(
                claim("alice", 1001, "laptop", "GPU-0", 8192, true), claim("alice", 1001, "desk", "GPU-1", 8192, false),
                claim("bob", 1002, "bobq", "GPU-1", 4096, false)), List.of());
        PolicyRoom room = NodeShares.apply(NODE, claims, List.of()).room();
        assertEquals(0, room.gpus());
        assertEquals(40 * 1024 - 16384, room.mib());
        assertEquals("the node's policy caps alice at 2 GPUs and 40.0G there and they hold 2 GPUs, 16.0G", room.who());
        assertEquals(new LaunchRequest.Cap(2, 40L * 1024), NodeShares.cap(claims));
    }

    @Test
    void noPolicyOrAnUnparsableOneChangesNothing() {
        assertSame(NODE, NodeShares.apply(NODE, node(null, List.of(), List.of()), List.of(pending(1, 1024, 5))));
        assertSame(NODE, NodeShares.apply(NODE, node("share: equal\n", List.of(), List.of()), List.of(pending(1, 1024, 5))));
        assertNull(NodeShares.cap(node("share: fair\n", List.of(), List.of())));
    }

    @Test
    void fairSharePutsFirstWhoeverIsFurthestBelowTheirWeightedShare() {
        List<GpuClaim> live = List.of(claim("alice", 1001, "laptop", "GPU-0", 16384, true),
                claim("carol", 1003, "carolq", "GPU-1", 16384, false));
        List<QueueDemand> demand = List.of(waiting("bob", 1002, "bobq", 8192, 100),
                waiting("carol", 1003, "carolq", 4096, 50), waiting("alice", 1001, "desk", 1024, 10));
        List<Job> mine = List.of(pending(1, 1024, 200));
        List<QueueDemand> ahead = NodeShares.apply(NODE, node("share: fair\n", live, demand), mine).room().ahead();
        assertEquals(List.of("bob", "carol"), ahead.stream().map(QueueDemand::user).toList(),
                "bob holds nothing; carol holds as much as alice and waited longer; alice's own other queue never counts");

        List<Job> older = List.of(pending(1, 1024, 20));
        ahead = NodeShares.apply(NODE, node("share: fair\n", live, demand), older).room().ahead();
        assertEquals(List.of("bob"), ahead.stream().map(QueueDemand::user).toList(), "carol ties alice and waited less");

        ahead = NodeShares.apply(NODE, node("share: fair\nusers:\n  carol:\n    weight: 4\n", live, demand), older)
                .room().ahead();
        assertEquals(List.of("bob", "carol"), ahead.stream().map(QueueDemand::user).toList(),
                "carol's weight 4 puts her use at a quarter of alice's");
        assertEquals(8192, ahead.get(0).mib());

        assertEquals(List.of(), NodeShares.apply(NODE, node("share: first_come\n", live, demand), mine).room().ahead());
        assertSame(NODE, NodeShares.apply(NODE, node("share: fair\n", live, demand), List.of()), "nothing of ours waits");
    }

    @Test
    void noCardIsHeldForAUserWhoseOwnCapKeepsTheirJobOff() {
        List<GpuClaim> live = List.of(claim("alice", 1001, "laptop", "GPU-0", 16384, true),
                claim("bob", 1002, "bobq", "GPU-1", 1024, false));
        List<QueueDemand> demand = List.of(waiting("bob", 1002, "bobq", 1024, 100));
        List<Job> mine = List.of(pending(1, 1024, 200));
        assertEquals(List.of("bob"), NodeShares.apply(NODE, node("share: fair\n", live, demand), mine).room().ahead()
                .stream().map(QueueDemand::user).toList());
        assertEquals(List.of(), NodeShares.apply(NODE, node("share: fair\nusers:\n  bob:\n    max_gpus: 1\n", live,
                demand), mine).room().ahead(), "bob holds his one GPU: his queue could not take another");
    }

    @Test
    void aQueuePublishesItsReadyGpuJobsForTheNode() {
        Job small = pending(1, 4096, 300);
        Job large = pending(2, 16384, 100);
        Job cpu = pending(3, new JobSpec("cpu", "true", 0, 0, null, null, Map.of(), List.of(), null, 0, List.of(),
                "alice@laptop"), 50);
        Job elsewhere = pending(4, new JobSpec("job-4", "true", 1, 1024, "gpu-b", null, Map.of(), List.of(), null, 0,
                List.of(), "alice@laptop"), 10);
        Job blocked = pending(5, new JobSpec("job-5", "true", 1, 1024, null, null, Map.of(),
                List.of(new dev.nvidb.model.Dependency(2, true)), null, 0, List.of(), "alice@laptop"), 10);
        AgentRequest.Demand demand = NodeShares.demand("gpu-a", List.of(small, large, cpu, elsewhere, blocked));
        assertEquals(new AgentRequest.Demand(2, 1, 4096, false, 100), demand);
        assertEquals(AgentRequest.Demand.NONE, NodeShares.demand("gpu-a", List.of(cpu)));
        assertEquals(JobState.PENDING, small.state());
    }
}
