package dev.nvidb.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nvidb.error.NodeException;
import dev.nvidb.error.SshException;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.NodeShell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A node in the test's own process: it answers agent requests (docs/agent-protocol.md) from a
 * scripted state — GPUs, foreign processes, the queue's jobs and how they end — instead of
 * running the agent. It can be unreachable or hang (which costs the request's whole timeout on
 * the {@link FakeClock}), and runs a hook while a request is "in flight", so a test can make a
 * user's command land exactly between a tick's reads and writes. No SSH, no processes, no
 * sleeps: the engine's logic is tested on its own, and the SSH suites test the real thing.
 */
public final class FakeNode implements NodeShell {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How the node answers. */
    public enum Reach { UP, DOWN, HANGING }

    /** One attempt of a queue job on this node, as the agent would find it in its directory. */
    public static final class Attempt {
        final long id;
        final int attempt;
        final String token;
        final String dir;
        final String script;
        final long pid;
        Integer exitCode;
        boolean vanished;
        boolean killed;
        String progress;
        JsonNode result;
        private String log;
        int gpu = -1;
        long memMb;

        Attempt(long id, int attempt, String token, String dir, String script, long pid) {
            this.id = id;
            this.attempt = attempt;
            this.token = token;
            this.dir = dir;
            this.script = script;
            this.pid = pid;
        }

        public boolean running() {
            return exitCode == null && !vanished;
        }

        public boolean killed() {
            return killed;
        }

        public String script() {
            return script;
        }

        public int attempt() {
            return attempt;
        }
    }

    private record Foreign(int gpu, long pid, long memMb) {
    }

    private record Gpu(int index, String name, long totalMb) {
    }

    private final String name;
    private final FakeClock clock;
    private final List<Gpu> gpus = new ArrayList<>();
    private final List<Foreign> foreign = new ArrayList<>();
    private final Map<String, Attempt> attempts = new LinkedHashMap<>();
    private final List<JsonNode> requests = new ArrayList<>();
    private String bootId = "boot-1";
    private Reach reach = Reach.UP;
    private String launchFailure;
    private Consumer<JsonNode> inFlight = request -> { };
    private long nextPid = 1000;

    public FakeNode(String name, FakeClock clock) {
        this.name = name;
        this.clock = clock;
    }

    /** Adds a GPU with {@code totalMb} of memory. */
    public synchronized FakeNode gpu(String model, long totalMb) {
        gpus.add(new Gpu(gpus.size(), model, totalMb));
        return this;
    }

    /** A process the queue did not start, using {@code memMb} on {@code gpu}. */
    public synchronized FakeNode foreignProcess(int gpu, long memMb) {
        foreign.add(new Foreign(gpu, nextPid++, memMb));
        return this;
    }

    public synchronized void reach(Reach reach) {
        this.reach = reach;
    }

    /** The node restarted: every job process is gone, and the boot id changed. */
    public synchronized void reboot() {
        bootId = bootId + "'";
        attempts.values().stream().filter(Attempt::running).forEach(attempt -> attempt.vanished = true);
    }

    /** Every launch fails with {@code error} (null: launches work again). */
    public synchronized void failLaunches(String error) {
        this.launchFailure = error;
    }

    /** Runs {@code hook} while a request is in flight: after the node received it, before it answers. */
    public synchronized void whileInFlight(Consumer<JsonNode> hook) {
        this.inFlight = hook;
    }

    /** The job's current attempt exits with {@code code}, leaving an optional result document. */
    public synchronized void exit(long jobId, int code, String resultJson) {
        Attempt attempt = current(jobId);
        attempt.exitCode = code;
        try {
            attempt.result = resultJson == null ? null : JSON.readTree(resultJson);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The job's current attempt exits with {@code code} after writing {@code log} (what the agent
     * sends as the end of its stderr and stdout: an OOM message, say).
     */
    public synchronized void exit(long jobId, int code, String resultJson, String log) {
        exit(jobId, code, resultJson);
        current(jobId).log = log;
    }

    /** The job's process disappears without an exit status (SIGKILL, OOM killer). */
    public synchronized void vanish(long jobId) {
        current(jobId).vanished = true;
    }

    /** The job writes a progress line. */
    public synchronized void progress(long jobId, String line) {
        current(jobId).progress = line;
    }

    /** The job's process uses {@code memMb} on {@code gpu}. */
    public synchronized void uses(long jobId, int gpu, long memMb) {
        Attempt attempt = current(jobId);
        attempt.gpu = gpu;
        attempt.memMb = memMb;
    }

    /** Every attempt of the job this node ever started, oldest first. */
    public synchronized List<Attempt> attempts(long jobId) {
        return attempts.values().stream().filter(attempt -> attempt.id == jobId).toList();
    }

    /** How many processes of the job run here now. */
    public synchronized long running(long jobId) {
        return attempts(jobId).stream().filter(Attempt::running).count();
    }

    /** Every request this node received (parsed), in order, also those it did not answer. */
    public synchronized List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** Requests that carried a GPU snapshot request (the tick's probes). */
    public synchronized long probes() {
        return requests.stream().filter(request -> request.path("snapshot").asBoolean(true)).count();
    }

    private Attempt current(long jobId) {
        List<Attempt> all = attempts(jobId);
        if (all.isEmpty()) {
            throw new AssertionError("job " + jobId + " never started on " + name);
        }
        return all.get(all.size() - 1);
    }

    @Override
    public CommandResult run(String command, byte[] stdin, Duration timeout) {
        JsonNode request = parseRequest(stdin);
        Consumer<JsonNode> hook;
        synchronized (this) {
            requests.add(request);
            if (reach == Reach.DOWN) {
                throw new SshException("cannot connect to " + name + ": Connection refused");
            }
            if (reach == Reach.HANGING) {
                clock.advance(timeout);
                throw new NodeException(name + ": no answer within " + timeout.toSeconds() + " s");
            }
            hook = inFlight;
        }
        hook.accept(request);
        synchronized (this) {
            byte[] reply = answer(request).toString().getBytes(StandardCharsets.UTF_8);
            return new CommandResult(0, reply, new byte[0]);
        }
    }

    @Override
    public String address() {
        return "fake:" + name;
    }

    /** The request line after the framed script (a byte count and the script's digest, a newline, the script). */
    private static JsonNode parseRequest(byte[] stdin) {
        int newline = 0;
        while (stdin[newline] != '\n') {
            newline++;
        }
        int length = Integer.parseInt(new String(stdin, 0, newline, StandardCharsets.US_ASCII).trim().split(" ")[0]);
        int start = newline + 1 + length;
        String line = new String(stdin, start, stdin.length - start, StandardCharsets.UTF_8).trim();
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills first, then launches, then the snapshot, then the job queries, as the agent does. */
    private ObjectNode answer(JsonNode request) {
        ObjectNode reply = JSON.createObjectNode();
        reply.put("schema_version", 1);
        ArrayNode kills = reply.putArray("kills");
        request.path("kill").forEach(kill -> kills.add(kill(kill)));
        ArrayNode launches = reply.putArray("launches");
        request.path("launch").forEach(launch -> launches.add(launch(launch)));
        boolean snapshot = request.path("snapshot").asBoolean(true);
        reply.put("source", snapshot ? "nvml" : "none");
        reply.putNull("error");
        ObjectNode node = reply.putObject("node");
        node.put("hostname", name);
        node.put("boot_id", bootId);
        node.put("time", clock.instant().toEpochMilli() / 1000.0);
        node.put("cpu_count", 16);
        node.put("disk_free_mb", 100_000);
        reply.put("driver_version", "550.54.14");
        ArrayNode gpuArray = reply.putArray("gpus");
        ObjectNode sessions = reply.putObject("sessions");
        if (snapshot) {
            gpus.forEach(gpu -> gpuArray.add(gpu(gpu, sessions)));
        }
        ArrayNode jobs = reply.putArray("jobs");
        request.path("jobs").forEach(query -> jobs.add(query(query)));
        return reply;
    }

    private ObjectNode gpu(Gpu gpu, ObjectNode sessions) {
        ObjectNode out = JSON.createObjectNode();
        out.put("index", gpu.index());
        out.put("uuid", "GPU-" + name + "-" + gpu.index());
        out.put("name", gpu.name());
        ArrayNode processes = out.putArray("processes");
        long used = 0;
        for (Foreign process : foreign) {
            if (process.gpu() == gpu.index()) {
                used += process.memMb();
                processes.addObject().put("pid", process.pid()).put("type", "compute").put("mem_mb", process.memMb())
                        .put("user", "someone").put("name", "python3");
                sessions.putObject(String.valueOf(process.pid())).put("sid", process.pid()).put("pgid", process.pid());
            }
        }
        for (Attempt attempt : attempts.values()) {
            if (attempt.running() && attempt.gpu == gpu.index() && attempt.memMb > 0) {
                long pid = attempt.pid + 1;
                used += attempt.memMb;
                processes.addObject().put("pid", pid).put("type", "compute").put("mem_mb", attempt.memMb)
                        .put("user", "tester").put("name", "python3");
                sessions.putObject(String.valueOf(pid)).put("sid", attempt.pid).put("pgid", attempt.pid + 1);
            }
        }
        out.put("mem_total_mb", gpu.totalMb());
        out.put("mem_used_mb", used);
        out.put("mem_free_mb", gpu.totalMb() - used);
        out.put("util_percent", 0);
        out.putNull("error");
        return out;
    }

    private ObjectNode kill(JsonNode kill) {
        ObjectNode out = JSON.createObjectNode();
        out.put("id", kill.path("id").asLong());
        Attempt attempt = attempts.get(kill.path("dir").asText());
        if (!bootId.equals(kill.path("boot_id").asText()) || attempt == null || !attempt.running()) {
            return out.put("status", "gone").put("reason", "no such live process");
        }
        if (attempt.pid != kill.path("pid").asLong() || attempt.pid != kill.path("start_ticks").asLong()) {
            return out.put("status", "not_ours").put("reason", "another process has that pid");
        }
        attempt.killed = true;
        attempt.exitCode = 143;
        return out.put("status", "signalled").putNull("reason");
    }

    private ObjectNode launch(JsonNode launch) {
        ObjectNode out = JSON.createObjectNode();
        long id = launch.path("id").asLong();
        int number = launch.path("attempt").asInt();
        out.put("id", id).put("attempt", number);
        String dir = launch.path("dir").asText();
        String token = launch.path("token").asText();
        Attempt existing = attempts.get(dir);
        if (existing != null) {
            if (!existing.token.equals(token)) {
                return out.put("status", "failed").put("error", "another launch token in " + dir);
            }
            return identity(out.put("status", "adopted"), existing);
        }
        if (launchFailure != null) {
            return out.put("status", "failed").put("error", launchFailure);
        }
        long pid = nextPid;
        nextPid += 10;
        Attempt attempt = new Attempt(id, number, token, dir, launch.path("script").asText(), pid);
        attempts.put(dir, attempt);
        return identity(out.put("status", "started"), attempt);
    }

    private ObjectNode query(JsonNode query) {
        ObjectNode out = JSON.createObjectNode();
        out.put("id", query.path("id").asLong()).put("attempt", query.path("attempt").asInt());
        Attempt attempt = attempts.get(query.path("dir").asText());
        if (attempt == null || !attempt.token.equals(query.path("token").asText())) {
            return out.put("status", "missing");
        }
        identity(out, attempt);
        out.put("progress", attempt.progress);
        if (attempt.running()) {
            return out.put("status", "running");
        }
        if (attempt.vanished) {
            return out.put("status", "vanished").put("reason", "no exit status").put("log_tail", "");
        }
        out.put("status", "exited").put("exit_code", attempt.exitCode)
                .put("finished_at", clock.instant().toEpochMilli() / 1000.0);
        out.set("result", attempt.result);
        if (attempt.exitCode != 0) {
            out.put("log_tail", attempt.log == null ? "it went wrong" : attempt.log);
            out.put("failure_log", attempt.log == null ? "it went wrong" : attempt.log);
        }
        return out;
    }

    private ObjectNode identity(ObjectNode out, Attempt attempt) {
        return out.put("pid", attempt.pid).put("pgid", attempt.pid).put("start_ticks", attempt.pid)
                .put("boot_id", bootId).put("started_at", clock.instant().toEpochMilli() / 1000.0);
    }
}
