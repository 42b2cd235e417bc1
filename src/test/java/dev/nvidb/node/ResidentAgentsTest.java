package dev.nvidb.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.error.NodeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's resident agents, with the real agent run by python3 on this machine: one agent
 * answers pass after pass, a dead one is replaced, a node where none starts is asked one-shot.
 */
class ResidentAgentsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private List<ProcessHandle> agents() {
        return ProcessHandle.current().descendants()
                .filter(process -> process.info().arguments().map(List::of).orElse(List.of()).contains("--serve"))
                .toList();
    }

    @Test
    void oneAgentAnswersEveryPassAndADeadOneIsReplaced() {
        Node node = new Node("here", true, new LocalShell("here", Map.of()));
        AgentScript script = AgentScript.bundled();
        String request = AgentRequest.probe(dir.resolve("jobs").toString()).toJson();
        try (ResidentAgents residents = new ResidentAgents(script)) {
            ProbeRound round = new ProbeRound(script, TIMEOUT, residents);
            for (int pass = 0; pass < 3; pass++) {
                NodeAnswer answer = round.ask(node, AgentRequest.probe(dir.resolve("jobs").toString()));
                assertTrue(answer.answered(), answer.failure());
            }
            List<ProcessHandle> running = agents();
            assertEquals(1, running.size(), "three passes, one agent");
            assertEquals(1, residents.running());

            running.get(0).destroyForcibly();
            awaitGone(running.get(0));
            assertThrows(NodeException.class, () -> residents.ask(node, request, TIMEOUT),
                    "the pass that finds its agent dead fails, as a failed exec would");
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent(), "the next pass starts a new agent");
            assertEquals(1, agents().size());
        }
        awaitNoAgents();
    }

    @Test
    void agentsBegunWithoutKeepingKeepTheirCompiledCodeOnlyOnceAllowed() throws Exception {
        Path nodeHome = java.nio.file.Files.createDirectories(dir.resolve("node-home"));
        Node node = new Node("here", true, new LocalShell("here", Map.of("HOME", nodeHome.toString())));
        String request = AgentRequest.probe("~/jobs").withoutSnapshot().toJson();
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled().withoutKeeping())) {
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent());
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent());
            assertTrue(java.nio.file.Files.notExists(nodeHome.resolve(".nvidb/agent")), "nothing kept yet");

            residents.allowKeeping();
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent(), "the request is answered as ever");
            try (java.util.stream.Stream<Path> kept = java.nio.file.Files.list(nodeHome.resolve(".nvidb/agent"))) {
                assertEquals(1, kept.filter(file -> file.toString().endsWith(".code")).count(),
                        "the compiled code is kept once allowed");
            }
        }
        awaitNoAgents();
    }

    @Test
    void aNodeWhereNoAgentStartsIsAskedOneShot() {
        Node node = new Node("bare", true, new LocalShell("bare", Map.of("PATH", dir.toString())));
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled())) {
            String request = AgentRequest.probe(dir.toString()).toJson();
            assertTrue(residents.ask(node, request, TIMEOUT).isEmpty(), "no python3 there: one-shot execs");
            assertTrue(residents.ask(node, request, TIMEOUT).isEmpty(), "and not retried at every pass");
            assertEquals(0, residents.running());
        }
    }

    @Test
    void aWarmedAgentStartsBeforeTheFirstAskWhichUsesItInsteadOfAStartOfItsOwn() {
        java.util.concurrent.atomic.AtomicInteger starts = new java.util.concurrent.atomic.AtomicInteger();
        LocalShell local = new LocalShell("here", Map.of());
        Node node = new Node("here", true, new NodeShell() {
            @Override
            public CommandResult run(String command, byte[] stdin, Duration timeout) {
                return local.run(command, stdin, timeout);
            }

            @Override
            public java.util.Optional<AgentPipe> start(String command) {
                starts.incrementAndGet();
                return local.start(command);
            }

            @Override
            public String address() {
                return "local";
            }
        });
        String request = AgentRequest.probe(dir.resolve("jobs").toString()).toJson();
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled())) {
            residents.warm(List.of(node));
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (residents.running() == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the warmed agent never started");
                }
                sleep();
            }
            assertEquals(1, agents().size(), "started without an ask");
            residents.warm(List.of(node));
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent());
            assertTrue(residents.ask(node, request, TIMEOUT).isPresent());
            assertEquals(1, starts.get(), "one start: the warm's, used by both asks; a second warm of a running one does nothing");
        }
        awaitNoAgents();
    }

    @Test
    void aWarmStartThatFailsIsTheFirstAsksFailureNotASecondAttempt() {
        java.util.concurrent.atomic.AtomicInteger starts = new java.util.concurrent.atomic.AtomicInteger();
        Node node = new Node("down", false, new NodeShell() {
            @Override
            public CommandResult run(String command, byte[] stdin, Duration timeout) {
                throw new NodeException("down: connection refused", null);
            }

            @Override
            public java.util.Optional<AgentPipe> start(String command) {
                starts.incrementAndGet();
                throw new NodeException("down: connection refused", null);
            }

            @Override
            public String address() {
                return "127.0.0.1:1";
            }
        });
        try (ResidentAgents residents = new ResidentAgents(AgentScript.bundled())) {
            residents.warm(List.of(node));
            NodeException failure = assertThrows(NodeException.class, () -> residents.ask(node, "{}", TIMEOUT));
            assertEquals("down: connection refused", failure.getMessage());
            assertEquals(1, starts.get(), "the ask reported the warm's failure instead of connecting again");
            assertThrows(NodeException.class, () -> residents.ask(node, "{}", TIMEOUT), "the next pass tries again");
            assertEquals(2, starts.get());
        }
    }

    private static void awaitGone(ProcessHandle process) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (process.isAlive() && System.nanoTime() < deadline) {
            sleep();
        }
    }

    private void awaitNoAgents() {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!agents().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("agents left running after close: " + agents());
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(20); // a poll with a deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
