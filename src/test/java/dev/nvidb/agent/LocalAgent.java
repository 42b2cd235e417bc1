package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.nvidb.testing.FakeGpuState;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the node agent on this machine exactly as a probe runs it over SSH: {@code sh -c}
 * with {@link AgentScript#onceCommand()}, the script and one request line on stdin, with a
 * node home of its own, python3 from {@code /usr/bin} (or {@code -Dnvidb.python}, or the one
 * given) and the fake NVML of {@code state}.
 */
final class LocalAgent {

    static final Duration LIMIT = Duration.ofSeconds(60);

    private final Path home;
    private final Path state;
    private final Path bin;
    private final AgentScript script;
    /** The node's LANG, or null for none (the C locale, as a plain SSH exec often has). */
    private final String lang;

    /** What one agent exec returned, unchecked. */
    record Exit(int code, byte[] stdout, byte[] stderr) {
    }

    LocalAgent(Path home, Path state, Path work) throws IOException {
        this(home, state, work, Path.of(System.getProperty("nvidb.python", "/usr/bin/python3")), "C.UTF-8");
    }

    /** A node whose python3 is {@code python}, with {@code lang} as its LANG (null: none). */
    LocalAgent(Path home, Path state, Path work, Path python, String lang) throws IOException {
        this.home = home;
        this.state = state;
        this.lang = lang;
        this.bin = Files.createDirectories(work.resolve("python-bin"));
        Path link = bin.resolve("python3");  // a script, not a link: @TempDir warns about links
        Files.writeString(link, "#!/bin/sh\nexec '" + python + "' \"$@\"\n");
        link.toFile().setExecutable(true);
        this.script = AgentScript.of(Files.readAllBytes(AgentSource.path()));
    }

    /** An agent whose node home is {@code dir/home} and whose fake GPUs are scripted in {@code dir/gpus.state}. */
    static LocalAgent in(Path dir) throws IOException {
        return new LocalAgent(Files.createDirectories(dir.resolve("home")), dir.resolve("gpus.state"), dir);
    }

    Path home() {
        return home;
    }

    /** The fake GPU state file this agent's NVML reads. */
    Path state() {
        return state;
    }

    /** The node's default claims directory (NVIDB_CLAIMS_DIR): beside its home. */
    Path claimsDir() {
        return home.resolveSibling("claims");
    }

    /** Sends one request; the agent must answer and exit (its job processes may live on). */
    ProbeReply send(AgentRequest request) {
        return send(request.toJson());
    }

    /** Sends one request line as given (to send what {@link AgentRequest} would refuse to render). */
    ProbeReply send(String requestJson) {
        byte[][] streams = exchange(requestJson);
        return AgentReplyParser.parseReply("local", streams[0], streams[1]);
    }

    /** Sends one request; the reply line as the agent wrote it. */
    String sendRaw(AgentRequest request) {
        return sendRaw(request.toJson());
    }

    /** Sends one request line as given; the reply line as the agent wrote it. */
    String sendRaw(String requestJson) {
        return new String(exchange(requestJson)[0], StandardCharsets.UTF_8);
    }

    /** Stdout and stderr of the agent for one request line. */
    private byte[][] exchange(String requestJson) {
        Exit exit = run(requestJson);
        assertEquals(0, exit.code(), new String(exit.stderr(), StandardCharsets.UTF_8));
        assertEquals(1, new String(exit.stdout(), StandardCharsets.UTF_8).lines().count(), "one reply line only");
        return new byte[][] {exit.stdout(), exit.stderr()};
    }

    /** One {@code --once} exec with one request line, whatever it returns. */
    Exit run(String requestJson) {
        try {
            Process agent = start();
            try (OutputStream in = agent.getOutputStream()) {
                in.write(script.onceInput(requestJson));
            }
            byte[] stdout = agent.getInputStream().readAllBytes();  // EOF only when no job holds the pipe
            if (!agent.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                agent.destroyForcibly();
                fail("the agent did not exit");
            }
            return new Exit(agent.exitValue(), stdout, agent.getErrorStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts a resident agent ({@code --serve}), as a daemon keeps one per node. */
    Resident serve() throws IOException {
        Process agent = start(script.serveCommand());
        agent.getOutputStream().write(script.preamble());
        agent.getOutputStream().flush();
        return new Resident(agent);
    }

    /** A resident agent: one reply line per request line, until closed. */
    static final class Resident implements AutoCloseable {

        private final Process agent;
        private final BufferedReader out;

        private Resident(Process agent) {
            this.agent = agent;
            this.out = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Sends one request; the reply line as the agent wrote it. */
        String sendRaw(AgentRequest request) {
            try {
                agent.getOutputStream().write((request.toJson() + "\n").getBytes(StandardCharsets.UTF_8));
                agent.getOutputStream().flush();
                String line = out.readLine();
                if (line == null) {
                    fail("the resident agent closed its output: "
                            + new String(agent.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                }
                return line;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            try {
                agent.getOutputStream().close();  // end of input ends the agent
                if (!agent.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                    fail("the resident agent did not exit at the end of its input");
                }
            } catch (IOException e) {
                agent.destroyForcibly();
            } catch (InterruptedException e) {
                agent.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private Process start() throws IOException {
        return start(script.onceCommand());
    }

    private Process start(String command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).directory(home.toFile());
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(FakeGpuState.environment(state));
        env.put("PATH", bin + ":" + FakeGpuState.binDir() + ":/usr/bin:/bin");
        env.put("HOME", home.toString());
        if (lang != null) {
            env.put("LANG", lang);
        }
        env.put("NVIDB_CLAIMS_DIR", claimsDir().toString());
        return builder.start();
    }
}
