package dev.nvidb.node;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.error.NodeException;
import dev.nvidb.error.NvidbException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's agents: one per node, started once and kept running between passes on the
 * node's open SSH connection, so a pass costs a request line and a reply line per node instead
 * of a python3 start, the script's transfer and the GPU library's initialisation.
 *
 * <p>An agent that stops answering (a timeout, its connection lost) is dropped and the node's
 * answer is a failure, as a failed one-shot exec would be; the next pass starts a new one. A
 * node where a new agent ends before its first answer (no python3 there) is asked by one-shot
 * execs, which have the nvidia-smi fallback, for a while before a resident agent is tried again.
 */
public final class ResidentAgents implements AutoCloseable {

    /** How long a node whose resident agent would not start is asked by one-shot execs instead. */
    static final Duration ONE_SHOT_SPELL = Duration.ofMinutes(10);

    private final AgentScript script;
    private final Map<String, Resident> residents = new ConcurrentHashMap<>();
    private final Map<String, Long> oneShotUntil = new ConcurrentHashMap<>();
    /** Starts {@link #warm} began that no ask has waited for yet. */
    private final Map<String, CompletableFuture<Void>> starting = new ConcurrentHashMap<>();
    /** Whether the next request of each agent asks it to keep its compiled code ({@link #allowKeeping}). */
    private volatile boolean keepCode;
    private volatile boolean closed;

    public ResidentAgents(AgentScript script) {
        this.script = script;
    }

    /**
     * The reply line of {@code node}'s resident agent to {@code requestJson}; empty when the node
     * has none to offer (its shell cannot keep one, or one would not start there): the caller then
     * runs a one-shot exec. Throws when a resident agent failed to answer.
     */
    public Optional<byte[]> ask(Node node, String requestJson, Duration timeout) {
        awaitStart(node.name(), timeout);
        Long until = oneShotUntil.get(node.name());
        if (closed || until != null && System.nanoTime() - until < 0) {
            return Optional.empty();
        }
        Resident resident = residents.get(node.name());
        if (resident == null) {
            resident = start(node);
            if (resident == null) {
                return Optional.empty();
            }
        }
        // One that never answered and ends now most likely cannot run here (no python3): one-shot execs then.
        boolean fresh = !resident.answered;
        String request = requestJson;
        if (keepCode && !resident.toldToKeep && request.startsWith("{")) {
            // A JSON object: the agent's first request from now on also asks it to keep its compiled code.
            request = "{\"keep_code\":true" + (request.strip().equals("{}") ? "}" : "," + request.substring(1));
            resident.toldToKeep = true;
        }
        try {
            byte[] line = resident.ask(request, timeout);
            resident.answered = true;
            return Optional.of(line);
        } catch (Ended e) {
            drop(node.name(), resident);
            if (fresh) {
                oneShotUntil.put(node.name(), System.nanoTime() + ONE_SHOT_SPELL.toNanos());
                return Optional.empty();
            }
            throw new NodeException(node.name() + ": the node's agent ended: " + e.getMessage(),
                    "a new agent starts at the next pass");
        } catch (NvidbException e) {
            drop(node.name(), resident);
            throw e;
        }
    }

    /**
     * Starts the agents of {@code nodes} now, each on a thread of its own, without waiting: the
     * SSH connection, the python3 start and the script's transfer overlap whatever the caller does
     * next (a waiting submit stores its job meanwhile). An ask for such a node first waits for its
     * start; a start that failed is that ask's failure, not a second attempt.
     */
    public void warm(List<Node> nodes) {
        for (Node node : nodes) {
            if (closed || residents.containsKey(node.name()) || oneShotUntil.containsKey(node.name())) {
                continue;
            }
            CompletableFuture<Void> started = new CompletableFuture<>();
            if (starting.putIfAbsent(node.name(), started) != null) {
                continue;
            }
            Thread thread = new Thread(() -> {
                try {
                    start(node);
                    started.complete(null);
                } catch (RuntimeException e) {
                    started.completeExceptionally(e);
                }
            }, "agent-start-" + node.name());
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Waits for a start {@link #warm} began for {@code node}, if any; its failure is thrown here, once. */
    private void awaitStart(String node, Duration timeout) {
        CompletableFuture<Void> started = starting.remove(node);
        if (started == null) {
            return;
        }
        try {
            started.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof NvidbException failure) {
                throw failure;
            }
            throw new NodeException(node + ": the agent did not start: " + e.getCause(), null, e.getCause());
        } catch (TimeoutException e) {
            throw new NodeException(node + ": the agent did not start within " + timeout.toSeconds() + " s",
                    "the node is slow or hung; the next pass tries again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NodeException(node + ": interrupted while its agent started", null, e);
        }
    }

    /**
     * Starts {@code node}'s agent and keeps it (or the one another thread started meanwhile); null
     * when its shell cannot keep one, or these agents are closed.
     */
    private Resident start(Node node) {
        Optional<AgentPipe> pipe = node.shell().start(script.serveCommand());
        if (pipe.isEmpty()) {
            oneShotUntil.put(node.name(), Long.MAX_VALUE / 2 + System.nanoTime());
            return null;
        }
        Resident resident = new Resident(node.name(), pipe.get(), script.preamble());
        Resident raced = residents.putIfAbsent(node.name(), resident);
        if (raced != null || closed) {
            resident.close();
            return closed ? null : raced;
        }
        return resident;
    }

    private void drop(String node, Resident resident) {
        residents.remove(node, resident);
        resident.close();
    }

    /**
     * From now on each agent's next request also asks it to keep its compiled code on its node
     * ({@code "keep_code"}, see docs/agent-protocol.md): for agents started with a script
     * {@linkplain AgentScript#withoutKeeping without keeping} before their command's line was
     * known to be valid, once it is. An agent that ran kept code has nothing to write.
     */
    public void allowKeeping() {
        keepCode = !script.keeping();
    }

    /** Whether {@code node} has a resident agent now, or one starting (an ask then reuses it rather than starting one). */
    public boolean keeps(String node) {
        return !closed && (residents.containsKey(node) || starting.containsKey(node));
    }

    /** How many nodes have a resident agent now (for tests and status). */
    public int running() {
        return residents.size();
    }

    @Override
    public void close() {
        closed = true;
        residents.values().forEach(Resident::close);
        residents.clear();
    }

    /** The agent ended (or its pipe broke) before answering. */
    private static final class Ended extends Exception {
        private static final long serialVersionUID = 1L;

        Ended(String message) {
            super(message, null, false, false);
        }
    }

    /** One node's agent: requests go in one at a time, each answered by the next line out. */
    private static final class Resident {
        private static final Object END = new Object();

        private final String node;
        private final AgentPipe pipe;
        private final BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
        /** Whether it answered a request yet. */
        volatile boolean answered;
        /** Whether a request asked it to keep its compiled code ({@link #allowKeeping}). */
        volatile boolean toldToKeep;

        Resident(String node, AgentPipe pipe, byte[] preamble) {
            this.node = node;
            this.pipe = pipe;
            try {
                pipe.stdin().write(preamble);
                pipe.stdin().flush();
            } catch (IOException e) {
                lines.add(END);
            }
            Thread reader = new Thread(this::read, "agent-" + node);
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (InputStream in = pipe.stdout()) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                byte[] buffer = new byte[16384];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            line.write(buffer, from, i - from);
                            lines.add(line.toByteArray());
                            line.reset();
                            from = i + 1;
                        }
                    }
                    line.write(buffer, from, n - from);
                }
            } catch (IOException e) {
                // the pipe broke: as its end
            } finally {
                lines.add(END);
            }
        }

        synchronized byte[] ask(String requestJson, Duration timeout) throws Ended {
            try {
                OutputStream in = pipe.stdin();
                in.write((requestJson + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                throw new Ended(describe("its input is closed"));
            }
            Object line;
            try {
                line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NodeException(node + ": interrupted while waiting for the agent", null, e);
            }
            if (line == null) {
                throw new NodeException(node + ": the agent gave no answer within " + timeout.toSeconds() + " s",
                        "the node is slow or hung; the next pass starts a new agent");
            }
            if (line == END) {
                lines.add(END);
                throw new Ended(describe("it exited"));
            }
            return (byte[]) line;
        }

        private String describe(String what) {
            String tail = pipe.stderrTail().strip();
            return tail.isEmpty() ? what : what + ": " + tail.lines().reduce((a, b) -> b).orElse(tail);
        }

        void close() {
            pipe.close();
        }
    }
}
