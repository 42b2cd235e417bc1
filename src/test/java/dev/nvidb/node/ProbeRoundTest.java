package dev.nvidb.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.error.NodeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one path to nodes: every node gets the agent and its own request, and a node that fails
 * becomes an answer with the reason, in its place, without affecting the others.
 */
class ProbeRoundTest {

    private static final AgentScript SCRIPT = AgentScript.of("pass\n".getBytes(StandardCharsets.UTF_8));
    private static final String REPLY = "{\"schema_version\":1,\"source\":\"none\",\"error\":null,\"gpus\":[],"
            + "\"node\":{\"hostname\":\"%s\"}}";

    private final ProbeRound round = new ProbeRound(SCRIPT, Duration.ofSeconds(5));

    @Test
    void eachNodeGetsItsOwnRequestAndFailuresAreAnswersInTheirPlace() {
        RecordingShell good = new RecordingShell(REPLY.formatted("gpu-a"));
        RecordingShell garbage = new RecordingShell("Traceback: boom");
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        requests.put(new Node("gpu-a", false, good), AgentRequest.probe("~/a"));
        requests.put(new Node("gpu-b", false, new FailingShell()), AgentRequest.probe("~/b"));
        requests.put(new Node("gpu-c", false, garbage), AgentRequest.probe("~/c").withoutSnapshot());

        Map<String, NodeAnswer> answers = round.run(requests);

        assertEquals(List.of("gpu-a", "gpu-b", "gpu-c"), List.copyOf(answers.keySet()));
        NodeAnswer a = answers.get("gpu-a");
        assertTrue(a.answered());
        assertEquals("gpu-a", a.reply().snapshot().info().hostname());
        assertEquals(REPLY.formatted("gpu-a"), a.raw());
        assertNull(a.failure());
        assertEquals("gpu-b: connection refused", answers.get("gpu-b").failure());
        assertFalse(answers.get("gpu-c").answered());
        assertTrue(answers.get("gpu-c").failure().startsWith("gpu-c: the node agent gave no readable answer"),
                answers.get("gpu-c").failure());
        assertEquals(SCRIPT.onceCommand(), good.commands.get(0));
        assertTrue(new String(good.inputs.get(0), StandardCharsets.UTF_8).endsWith(AgentRequest.probe("~/a").toJson() + "\n"),
                "the script, then the node's own request line");
        assertTrue(new String(garbage.inputs.get(0), StandardCharsets.UTF_8).contains("\"snapshot\":false"));
    }

    @Test
    void nodesWithTheSameNameKeepTheirOwnAnswersInOrder() {
        Node local = new Node("box", true, new RecordingShell(REPLY.formatted("local-box")));
        Node server = new Node("box", false, new RecordingShell(REPLY.formatted("remote-box")));

        List<NodeAnswer> answers = round.each(List.of(local, server), node -> AgentRequest.probe("~"));

        assertEquals(List.of("local-box", "remote-box"),
                answers.stream().map(answer -> answer.reply().snapshot().info().hostname()).toList());
    }

    /** Answers every command with a fixed standard output and remembers what it was sent. */
    private static final class RecordingShell implements NodeShell {
        final List<String> commands = Collections.synchronizedList(new ArrayList<>());
        final List<byte[]> inputs = Collections.synchronizedList(new ArrayList<>());
        private final String stdout;

        RecordingShell(String stdout) {
            this.stdout = stdout;
        }

        @Override
        public CommandResult run(String command, byte[] stdin, Duration timeout) {
            commands.add(command);
            inputs.add(stdin);
            return new CommandResult(0, stdout.getBytes(StandardCharsets.UTF_8), new byte[0]);
        }

        @Override
        public String address() {
            return "127.0.0.1";
        }
    }

    /** A node that cannot be reached. */
    private static final class FailingShell implements NodeShell {
        @Override
        public CommandResult run(String command, byte[] stdin, Duration timeout) {
            throw new NodeException("gpu-b: connection refused");
        }

        @Override
        public String address() {
            return "10.0.0.2";
        }
    }
}
