package dev.nvidb.agent;

import static dev.nvidb.testing.FakeGpuState.ProcessKind.COMPUTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sessions table lets the engine charge a GPU process to the job whose wrapper leads its session. */
class SessionsTest extends LocalJobs {

    @Test
    void gpuProcessStartedByAJobCarriesTheWrappersSession() {
        LaunchRequest launch = launch(1, "sleep 300 & echo $! > child.pid; wait");
        WrapperProcess wrapper = launchAll(launch).get(0).wrapper();
        long child = Long.parseLong(Polling.until(TIMEOUT, () -> read(jobDir(1).resolve("child.pid")),
                text -> text.endsWith("\n"), "the child").strip());
        long stranger = ProcessHandle.current().pid();
        FakeGpuState.create().gpu(0, "NVIDIA H100", 81559).used(0, 3000).process(0, COMPUTE, child, 2000)
                .process(0, COMPUTE, stranger, 1000).process(0, COMPUTE, AgentScriptTest.NO_SUCH_PID, 5)
                .writeTo(state);

        ProbeReply reply = agent.send(AgentRequest.probe(ROOT).withJobs(List.of(launch.query())));

        assertEquals(wrapper.pid(), reply.sessions().get(child).sid());
        // The job has a process group of its own, so its kills never reach the wrapper.
        assertTrue(reply.sessions().get(child).pgid() != wrapper.pgid());
        assertTrue(reply.sessions().get(stranger).sid() != wrapper.pid());
        assertFalse(reply.sessions().containsKey(AgentScriptTest.NO_SUCH_PID), "a gone process has no entry");
        assertEquals(JobReport.Status.RUNNING, reply.findJob(1).orElseThrow().status());
        assertEquals(2, reply.snapshot().gpus().get(0).processes().size() - 1);
    }
}
