package dev.nvidb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.QueueConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.node.ResidentAgents;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --node} and the node admin commands name a node exactly, or by a unique prefix. */
class QueueNodesTest {

    private static QueueNodes nodes(boolean includeLocal, String... servers) {
        return nodes(Path.of("/tmp/h/.nvidb"), null, includeLocal, servers);
    }

    private static QueueNodes nodes(Path nvidbHome, String jobRoot, boolean includeLocal, String... servers) {
        NvidbHome home = new NvidbHome(nvidbHome, Path.of("/tmp/h"));
        NvidbConfig defaults = NvidbConfig.defaults(home);
        QueueConfig queue = defaults.queue();
        QueueConfig withLocal = new QueueConfig(includeLocal, "here", queue.tickMinInterval(), queue.leaseSeconds(),
                queue.headroomMb(), queue.maxJobsPerGpu(), queue.maxCpuJobsPerNode(), queue.placement(),
                jobRoot == null ? queue.jobRoot() : jobRoot,
                queue.killGraceSeconds(), queue.backoffMaxSeconds(), queue.lostAfterSeconds(), queue.logTailLines(),
                queue.notifications(), queue.backup());
        List<ServerConfig> list = java.util.Arrays.stream(servers).map(ServerConfig::ofHost).toList();
        NvidbConfig config = new NvidbConfig(home, defaults.basic(), defaults.view(), list, list, withLocal, null,
                List.of(), null);
        return new QueueNodes(config, () -> {
            throw new AssertionError("resolving names opens no shell");
        }, "fallback");
    }

    @Test
    void onlyAgentsKeptAsTheCommandsOwnMayBeHeldByAWatch() {
        QueueNodes nodes = nodes(false, "gpu-a");
        try (ResidentAgents agents = new ResidentAgents(dev.nvidb.agent.AgentScript.of(new byte[0]))) {
            nodes.keepAgents(agents);
            assertTrue(nodes.keepsAgents());
            assertNull(nodes.ownedAgents(), "a daemon's or a ticker's agents also serve others");
            nodes.keepAgents(agents, true);
            assertSame(agents, nodes.ownedAgents(), "a waiting command's own");
            nodes.keepAgents(null);
            assertNull(nodes.ownedAgents());
            nodes.keepAgents(agents, true);
            nodes.keepAgents(null, true);
            assertNull(nodes.ownedAgents(), "none kept: none owned");
        }
    }

    @Test
    void exactNameWinsOverAPrefixOfAnother() {
        assertEquals("gpu-a", nodes(false, "gpu-a", "gpu-a2").resolve("gpu-a"));
    }

    @Test
    void uniquePrefixNamesTheNode() {
        assertEquals("gpu-b200", nodes(false, "gpu-a100", "gpu-b200").resolve("gpu-b"));
    }

    @Test
    void ambiguousPrefixListsTheCandidates() {
        UsageException error = assertThrows(UsageException.class, () -> nodes(false, "gpu-a", "gpu-b").resolve("gpu"));
        assertEquals("'gpu' matches several nodes: gpu-a, gpu-b", error.getMessage());
    }

    @Test
    void unknownNameListsTheQueueNodes() {
        UsageException error = assertThrows(UsageException.class, () -> nodes(true, "gpu-a").resolve("cpu"));
        assertEquals("no node named 'cpu'", error.getMessage());
        assertTrue(error.hint().orElseThrow().contains("here, gpu-a"), error.hint().orElseThrow());
    }

    @Test
    void withoutServersThisMachineIsTheOnlyNode() {
        assertEquals(List.of("here"), nodes(false).names());
        assertEquals(List.of("here", "gpu-a"), nodes(true, "gpu-a").names());
        assertEquals(List.of("gpu-a"), nodes(false, "gpu-a").names());
    }

    @Test
    void nvidbHomeMovesThisMachinesDefaultJobRootButNotTheServers() {
        QueueNodes moved = nodes(Path.of("/srv/q2"), null, true, "gpu-a");
        assertEquals("/srv/q2/jobs", moved.jobRoot("here"));
        assertEquals("~/.nvidb/jobs", moved.jobRoot("gpu-a"));
        QueueNodes usual = nodes(true, "gpu-a");
        assertEquals("~/.nvidb/jobs", usual.jobRoot("here"));
        QueueNodes explicit = nodes(Path.of("/srv/q2"), "/scratch/jobs", true, "gpu-a");
        assertEquals("/scratch/jobs", explicit.jobRoot("here"));
        assertEquals("/scratch/jobs", explicit.jobRoot("gpu-a"));
    }
}
