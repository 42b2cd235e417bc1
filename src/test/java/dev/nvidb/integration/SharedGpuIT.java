package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two lab members share one node (docs/sharing.md): each has a queue of their own (their own
 * {@code NVIDB_HOME}, logging in to the node as their own Unix user over real OpenSSH), and the
 * node has one 24 GiB GPU. Their claims on the node keep them from booking the card twice.
 */
class SharedGpuIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALICE = "nvidbsa";
    private static final String BOB = "nvidbsb";
    private static OpenSshHost node;
    private static Path aliceHome;
    private static Path bobHome;
    private static Path claims;

    @BeforeAll
    static void startNode() throws Exception {
        Prerequisites.requireOpenSsh();
        Path work = Files.createTempDirectory("nvidb-shared-gpu");
        aliceHome = work.resolve("alice");
        bobHome = work.resolve("bob");
        LinkedHashMap<String, Path> keys = new LinkedHashMap<>();
        keys.put(ALICE, OpenSshHost.clientHome(aliceHome));
        keys.put(BOB, OpenSshHost.clientHome(bobHome));
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        node = OpenSshHost.startShared("shared-1", "127.0.0.41", keys, work, fake);
        FakeGpuState.create().gpu(0, "NVIDIA RTX 4090", 24576).uuid(0, "GPU-shared-4090").used(0, 0)
                .writeTo(node.gpuStateFile());
        claims = Path.of("/tmp/nvidb-it-shared-claims-" + ProcessHandle.current().pid());
        for (Path home : List.of(aliceHome, bobHome)) {
            String user = home == aliceHome ? ALICE : BOB;
            Path ssh = home.resolve(".ssh");
            Files.writeString(ssh.resolve("config"), "Host shared-1\n  HostName " + node.address() + "\n  Port "
                    + node.port() + "\n  User " + user + "\n");
            Files.writeString(ssh.resolve("known_hosts"), node.knownHostsLine() + "\n");
            Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
            String server = "servers:\n  - hostname: shared-1\n    claims_dir: \"" + claims + "\"\n";
            Files.writeString(nvidb.resolve("queue.yml"), server + "queue:\n  kill_grace_seconds: 1\n");
            Files.writeString(nvidb.resolve("config.yml"), server); // the monitor's servers
        }
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) {
            node.close();
        }
        OpenSshHost.exitCode("pkill", "-KILL", "-u", ALICE);
        OpenSshHost.exitCode("pkill", "-KILL", "-u", BOB);
        if (claims != null) {
            OpenSshHost.exitCode("rm", "-rf", claims.toString());
        }
    }

    @BeforeEach
    void oneCard() throws Exception {
        cards(1);
    }

    /** The node's GPUs: {@code count} RTX 4090s of 24 GiB, nothing in use. */
    private static void cards(int count) throws Exception {
        FakeGpuState gpus = FakeGpuState.create();
        for (int i = 0; i < count; i++) {
            gpus.gpu(i, "NVIDIA RTX 4090", 24576).uuid(i, i == 0 ? "GPU-shared-4090" : "GPU-shared-4090-" + i).used(i, 0);
        }
        gpus.writeTo(node.gpuStateFile());
    }

    /** Writes the node's policy.yml as its administrator (root, mode 0644) would. */
    private static void policy(String text) throws Exception {
        Files.createDirectories(claims);
        assertEquals(0, OpenSshHost.exitCode("chmod", "1777", claims.toString()));
        Path file = claims.resolve("policy.yml");
        Files.writeString(file, text);
        assertEquals(0, OpenSshHost.exitCode("chmod", "0644", file.toString()));
    }

    @AfterEach
    void noPolicy() throws Exception {
        Files.deleteIfExists(claims.resolve("policy.yml"));
    }

    @AfterEach
    void endEveryJob() throws Exception {
        for (Path home : List.of(aliceHome, bobHome)) {
            for (JsonNode job : json(home, "job", "ls", "--json").get("jobs")) {
                String state = job.get("state").asText();
                if (state.equals("pending") || state.equals("running")) {
                    nvidb(home, "job", "cancel", job.get("id").asText());
                }
            }
        }
        // Each queue's lingering submit ticker goes first: killing the users' processes on the node
        // below would kill the agents it keeps there, its next tick would fail and the node would
        // back off in that queue, so the next test's first ticks would skip the node (and publish
        // no demand there).
        long deadline = System.nanoTime() + 10_000_000_000L;
        for (Path home : List.of(aliceHome, bobHome)) {
            String ticker = "queue tick --background --db-path " + home.resolve(".nvidb");
            OpenSshHost.exitCode("pkill", "-TERM", "-f", ticker);
            while (OpenSshHost.exitCode("pgrep", "-f", ticker) == 0) {
                assertTrue(System.nanoTime() < deadline, "the submit ticker of " + home + " outlived SIGTERM");
                Thread.sleep(20); // a poll with a deadline
            }
        }
        OpenSshHost.exitCode("pkill", "-KILL", "-u", ALICE);
        OpenSshHost.exitCode("pkill", "-KILL", "-u", BOB);
        while (OpenSshHost.exitCode("pgrep", "-u", ALICE + "," + BOB) == 0) {
            assertTrue(System.nanoTime() < deadline, "the users' processes outlived SIGKILL");
            Thread.sleep(20); // a poll with a deadline
        }
        for (Path home : List.of(aliceHome, bobHome)) {
            // a forced pass (a status could skip its own after the cancels' ticks): each owner's
            // probe removes its dead claims and withdraws its queue's demand
            json(home, "queue", "tick", "--json");
        }
        try (var left = Files.isDirectory(claims) ? Files.list(claims) : java.util.stream.Stream.<Path>empty()) {
            List<String> names = left.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("claim-") || name.startsWith("demand-")).toList();
            assertEquals(List.of(), names, "every claim and demand withdrawn by its owner once its jobs ended");
        }
    }

    private static Launcher.Run nvidb(Path home, String... args) throws Exception {
        return Launcher.run(Map.of("HOME", home.toString(), "PATH", System.getenv("PATH")), args);
    }

    private static JsonNode json(Path home, String... args) throws Exception {
        Launcher.Run run = nvidb(home, args);
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        return JSON.readTree(run.stdout());
    }

    private static long submit(Path home, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--json", "--vram", "16G", "--"));
        args.addAll(List.of(command));
        return json(home, args.toArray(String[]::new)).at("/job/id").asLong();
    }

    /** The job as {@code job show --json} reports it after a tick of its queue. */
    private static JsonNode job(Path home, long id) throws Exception {
        json(home, "queue", "tick", "--json");
        return json(home, "job", "show", "--json", String.valueOf(id)).get("job");
    }

    private static JsonNode awaitState(Path home, long id, String state) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            JsonNode job = job(home, id);
            if (job.get("state").asText().equals(state)) {
                return job;
            }
            assertTrue(System.nanoTime() < deadline, "job " + id + " is " + job + ", not " + state);
            Thread.sleep(200); // a poll with a deadline
        }
    }

    /** Live claim files on the node and the MiB they reserve in all. */
    private static long reservedOnTheNode() throws Exception {
        long total = 0;
        if (!Files.isDirectory(claims)) {
            return 0;
        }
        try (var files = Files.list(claims)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("claim-")).toList()) {
                JsonNode claim = JSON.readTree(Files.readString(file));
                if (claim.get("pid").isNull() || Files.exists(Path.of("/proc/" + claim.get("pid").asLong()))) {
                    total += claim.get("mib").asLong();
                }
            }
        }
        return total;
    }

    @Test
    void theSecondUsersJobWaitsNamingTheFirstUsersClaimAndStartsOnceItEnds() throws Exception {
        long alices = submit(aliceHome, "sleep", "120");
        JsonNode running = awaitState(aliceHome, alices, "running");
        assertEquals("shared-1", running.get("node").asText());

        long bobs = submit(bobHome, "echo", "bob ran");
        JsonNode pending = awaitState(bobHome, bobs, "pending");
        for (int tick = 0; tick < 3; tick++) { // each of bob's ticks probes the node and plans again
            pending = job(bobHome, bobs);
            assertEquals("pending", pending.get("state").asText(), "32 GiB never reserved on a 24 GiB card");
        }
        String reason = pending.get("pending_reason").asText();
        assertTrue(reason.contains(ALICE + ": 16.0G reserved, job " + alices + " of queue"), reason);

        Launcher.Run why = nvidb(bobHome, "job", "why", String.valueOf(bobs));
        assertTrue(why.stdout().contains("claimed by " + ALICE), why.stdout() + why.stderr());
        Launcher.Run nodes = nvidb(bobHome, "queue", "nodes");
        assertTrue(nodes.stdout().contains("claimed by " + ALICE), nodes.stdout() + nodes.stderr());
        JsonNode once = json(bobHome, "--once", "--remote", "--json");
        JsonNode shared = null;
        for (JsonNode probed : once.get("nodes")) {
            shared = probed.get("node").asText().equals("shared-1") ? probed : shared;
        }
        assertEquals(ALICE, shared.at("/gpus/0/claims/0/user").asText(), once.toString());
        assertEquals(16384, shared.at("/gpus/0/claims/0/reserved_mb").asLong(), once.toString());

        // kill -9 of alice's job, wrapper and all: bob's next tick sees the card free and starts his job.
        assertEquals(0, OpenSshHost.exitCode("bash", "-c", "pkill -KILL -s $(ps -o sid= -p $(pgrep -u " + ALICE
                + " -xf 'sleep 120'))"), "alice's job and its wrapper killed");
        JsonNode started = awaitState(bobHome, bobs, "completed");
        assertEquals("shared-1", started.get("node").asText());
    }

    @Test
    void aNodePolicyCapKeepsAUserToTheirGpusWhileTheCardsHaveRoom() throws Exception {
        cards(2);
        policy("users:\n  " + BOB + ":\n    max_gpus: 1\n");
        long first = submit(bobHome, "sleep", "60");
        awaitState(bobHome, first, "running");
        long second = submit(bobHome, "sleep", "60");
        for (int tick = 0; tick < 3; tick++) {
            JsonNode waiting = job(bobHome, second);
            assertEquals("pending", waiting.get("state").asText(), "bob is capped at one GPU on the node");
            assertTrue(waiting.get("pending_reason").asText().contains("the node's policy caps " + BOB
                    + " at 1 GPU there and they hold 1 GPU"), waiting.toString());
        }
        long alices = submit(aliceHome, "sleep", "60");
        assertEquals("running", awaitState(aliceHome, alices, "running").get("state").asText(), "alice is not capped");
        Launcher.Run nodes = nvidb(bobHome, "queue", "nodes");
        assertTrue(nodes.stdout().contains("policy: first come; " + BOB + ": max 1 GPU"), nodes.stdout() + nodes.stderr());

        assertEquals(0, OpenSshHost.exitCode("bash", "-c", "pkill -KILL -s $(ps -o sid= -p $(pgrep -u " + BOB
                + " -xf 'sleep 60'))"), "bob's first job killed");
        awaitState(bobHome, second, "running");
    }

    @Test
    void underFairShareAFreedGpuWaitsForTheUserFurthestBelowTheirShare() throws Exception {
        cards(2);
        policy("share: fair\n");
        long holding = submit(aliceHome, "sleep", "120");
        awaitState(aliceHome, holding, "running");
        long brief = submit(aliceHome, "sleep", "6");
        awaitState(aliceHome, brief, "running"); // both cards hold 16 GiB of alice's now
        // bob's submit ticks in its own process and leaves no ticker behind: his queue ticks only when the
        // test says, so what alice's ticks do with a freed card is seen before his queue could take it.
        Launcher.Run submitted = Launcher.run(Map.of("HOME", bobHome.toString(), "PATH", System.getenv("PATH"),
                "NVIDB_SUBMIT_TICK", "inline"), "job", "submit", "--json", "--vram", "16G", "--", "sleep", "60");
        assertEquals(0, submitted.exitCode(), submitted.stdout() + submitted.stderr());
        long bobs = JSON.readTree(submitted.stdout()).at("/job/id").asLong();
        assertEquals("pending", json(bobHome, "job", "show", "--json", String.valueOf(bobs)).at("/job/state").asText(),
                "no room for bob yet: his probe published his demand");
        long next = submit(aliceHome, "sleep", "60");
        awaitState(aliceHome, brief, "completed"); // alice's ticks see GPU1 free again
        for (int tick = 0; tick < 3; tick++) {
            JsonNode waiting = job(aliceHome, next);
            assertEquals("pending", waiting.get("state").asText(), "GPU1 is left for bob, who holds nothing");
            String reason = waiting.get("pending_reason").asText();
            assertTrue(reason.contains("GPU1: " + BOB + ": 16.0G held for a waiting job") && reason.contains("share: fair"),
                    reason);
        }
        Launcher.Run nodes = nvidb(aliceHome, "queue", "nodes");
        assertTrue(nodes.stdout().contains("policy: share fair") && nodes.stdout().contains("waiting: " + BOB
                + " waits with 1 GPU job"), nodes.stdout() + nodes.stderr());
        awaitState(bobHome, bobs, "running"); // bob's next tick takes it
        JsonNode waiting = job(aliceHome, next);
        assertEquals("pending", waiting.get("state").asText(), "bob's job holds GPU1 now");
        Launcher.Run why = nvidb(aliceHome, "job", "why", String.valueOf(next));
        assertTrue(why.stdout().contains("claimed by " + BOB) || why.stdout().contains(BOB + ": 16.0G reserved"),
                why.stdout() + why.stderr());
    }

    @Test
    void twoQueuesSubmittingAtOnceNeverReserveMoreThanTheCard() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                List<Future<Long>> ids = new ArrayList<>();
                for (Path home : List.of(aliceHome, bobHome)) {
                    ids.add(pool.submit(() -> submit(home, "sleep", "60")));
                }
                long alices = ids.get(0).get();
                long bobs = ids.get(1).get();
                long deadline = System.nanoTime() + 30_000_000_000L;
                int runningNow;
                do {
                    List<Future<JsonNode>> states = List.of(pool.submit(() -> job(aliceHome, alices)),
                            pool.submit(() -> job(bobHome, bobs)));
                    runningNow = 0;
                    for (Future<JsonNode> state : states) {
                        runningNow += state.get().get("state").asText().equals("running") ? 1 : 0;
                    }
                    assertTrue(runningNow <= 1, "round " + round + ": both 16 GiB jobs run on one 24 GiB card");
                    assertTrue(reservedOnTheNode() <= 24576, "round " + round + ": claims over the card");
                } while (runningNow == 0 && System.nanoTime() < deadline);
                assertEquals(1, runningNow, "round " + round + ": one of the two runs");
                endEveryJob();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
