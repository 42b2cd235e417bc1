package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.JobReport.Status;
import dev.nvidb.error.NodeException;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.testing.OldPythons;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The agent on the old pythons labs still run as {@code python3} (3.6, 3.7, 3.8, from the
 * image's pyenv builds), started as a probe starts it and in the C locale a plain SSH exec
 * often has: it probes, launches and settles a job, answers as a resident agent, keeps compiled
 * code per interpreter, and an older python3 gets one line saying what is needed.
 */
class OldPythonAgentTest extends LocalJobs {

    static final List<String> SUPPORTED = OldPythons.SUPPORTED;

    private LocalAgent on(String minor) throws Exception {
        return new LocalAgent(home, state, Files.createDirectories(dir.resolve("python-" + minor)),
                OldPythons.interpreter(minor), null);
    }

    @ParameterizedTest
    @FieldSource("SUPPORTED")
    void probesLaunchesAndSettlesAJobWithoutALocale(String minor) throws Exception {
        agent = on(minor);
        ProbeReply probe = agent.send(AgentRequest.probe(ROOT));
        NodeSnapshot snapshot = probe.snapshot();
        assertTrue(snapshot.info().python().startsWith(minor + "."), snapshot.info().python());
        assertEquals(GpuSource.NVML, snapshot.source(), String.valueOf(snapshot.error()));
        assertEquals(1, snapshot.gpus().size());

        // Non-ASCII in run.sh: Python 3.6 in the C locale writes text files as ASCII only.
        LaunchRequest launch = launch(1, "echo 'héllo ✓'; echo 'fäiled' >&2; exit 3");
        LaunchReport started = launchAll(launch).get(0);
        assertEquals(LaunchReport.Outcome.STARTED, started.outcome(), String.valueOf(started.error()));
        JobReport exited = awaitEnd(launch);
        assertEquals(Status.EXITED, exited.status());
        assertEquals(3, exited.exitCode());
        assertEquals("fäiled", exited.logTail());
        assertEquals("héllo ✓\n", Files.readString(jobDir(1).resolve("stdout.log")));
    }

    @ParameterizedTest
    @FieldSource("SUPPORTED")
    void answersAsAResidentAgent(String minor) throws Exception {
        agent = on(minor);
        try (LocalAgent.Resident resident = agent.serve()) {
            for (int request = 0; request < 2; request++) {
                NodeSnapshot snapshot = AgentReplyParser.parseJson("local", resident.sendRaw(AgentRequest.probe(ROOT)), "");
                assertTrue(snapshot.info().python().startsWith(minor + "."), snapshot.info().python());
                assertEquals(1, snapshot.gpus().size());
            }
        }
    }

    @Test
    void eachPythonRunsOnlyTheCodeItKept() throws Exception {
        LocalAgent old = on("3.6");
        LocalAgent newer = on("3.8");
        old.sendRaw(AgentRequest.probe(ROOT));
        newer.sendRaw(AgentRequest.probe(ROOT));
        List<Path> kept = keptCode();
        assertEquals(2, kept.size(), "one file per interpreter: " + kept);
        Path oldCode = kept.stream().filter(file -> file.getFileName().toString().contains("-cpython-36-"))
                .findFirst().orElseThrow(() -> new AssertionError("no 3.6 code in " + kept));

        // Code under 3.6's name runs on 3.6 only; 3.8 runs its own, never 3.6's bytecode.
        AgentCodeCacheTest.replaceWithCodePrinting(OldPythons.interpreter("3.6").toString(), oldCode, "{\"kept\": true}");
        assertEquals("{\"kept\": true}\n", old.sendRaw(AgentRequest.probe(ROOT)));
        NodeSnapshot snapshot = newer.send(AgentRequest.probe(ROOT)).snapshot();
        assertTrue(snapshot.info().python().startsWith("3.8."), snapshot.info().python());
    }

    @Test
    void anOlderPython3GetsOneLineNamingItsVersionAndWhatIsNeeded() throws Exception {
        LocalAgent agent = on(OldPythons.TOO_OLD);
        LocalAgent.Exit exit = agent.run(AgentRequest.probe(ROOT).toJson());
        String stderr = new String(exit.stderr(), StandardCharsets.UTF_8);
        assertEquals(0, exit.stdout().length, "no reply: " + new String(exit.stdout(), StandardCharsets.UTF_8));
        assertEquals(1, stderr.lines().count(), stderr);
        NodeException error = assertThrows(NodeException.class,
                () -> AgentReplyParser.parseReply("gpu-a", exit.stdout(), exit.stderr()));
        assertTrue(error.getMessage().matches("gpu-a: .*: python3 on the node is " + OldPythons.TOO_OLD
                + "\\.\\d+, and the nvidb agent needs 3\\.6 or newer"), error.getMessage());
        assertTrue(Files.notExists(home.resolve(".nvidb")), "nothing written on the node");
    }

    private List<Path> keptCode() throws Exception {
        try (Stream<Path> files = Files.list(home.resolve(".nvidb/agent"))) {
            return files.toList();
        }
    }
}
