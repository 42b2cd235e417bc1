package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Slurm cluster as a queue node, against a real Slurm: Debian's {@code slurmctld}, {@code slurmd}
 * and {@code munge}, started by the test as a one-machine cluster ({@link SlurmCluster}), reached
 * over a real OpenSSH server whose login user submits with {@code sbatch}. The built
 * {@code bin/nvidb} is the client, as a user runs it.
 */
class SlurmIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SlurmCluster cluster;
    private static OpenSshHost login;
    private static OpenSshHost workstation;
    private static Path home;
    private static Path bin;

    @BeforeAll
    static void startCluster() throws Exception {
        Prerequisites.requireOpenSsh();
        Prerequisites.requireSlurm();
        cluster = SlurmCluster.start();
        Path work = Files.createTempDirectory("nvidb-slurm-it");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        login = OpenSshHost.start("slurm-login", "127.0.0.91", "nvidbt90", work, key, fake, true,
                Map.of("SLURM_CONF", cluster.conf().toString()));
        workstation = OpenSshHost.start("ws", "127.0.0.92", "nvidbt91", work, key, fake, true);
        FakeGpuState.create().gpu(0, "NVIDIA L40S", 46068).uuid(0, "GPU-ws").used(0, 0)
                .writeTo(workstation.gpuStateFile());
        bin = slurmBin();
        Path ssh = key.getParent();
        StringBuilder config = new StringBuilder();
        for (OpenSshHost host : List.of(login, workstation)) {
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
        }
        Files.writeString(ssh.resolve("config"), config.toString());
        Files.writeString(ssh.resolve("known_hosts"), login.knownHostsLine() + "\n" + workstation.knownHostsLine() + "\n");
        Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(nvidb.resolve("queue.yml"), """
                servers:
                  - hostname: ws
                  - hostname: slurm-login
                    nickname: cluster
                    kind: slurm
                    partition: %1$s
                    slurm_bin: %2$s
                  - hostname: slurm-login
                    nickname: cluster-1min
                    kind: slurm
                    partition: %1$s
                    time_limit: "1"
                    slurm_bin: %2$s
                queue:
                  tick_min_interval: 0
                  kill_grace_seconds: 1
                """.formatted(SlurmCluster.PARTITION, bin));
    }

    /**
     * The folder of Slurm's commands the login user's agent runs ({@code slurm_bin}): the real ones,
     * but {@code sbatch} holds after submitting while a gate file exists, so a test can kill the tick
     * between Slurm's answer and nvidb recording it.
     */
    private static Path slurmBin() throws Exception {
        Path dir = cluster.directory().resolve("bin");
        Files.createDirectories(dir);
        for (String command : List.of("squeue", "sacct", "scancel", "sinfo")) {
            Files.createSymbolicLink(dir.resolve(command), Path.of("/usr/bin").resolve(command));
        }
        Path sbatch = dir.resolve("sbatch");
        Files.writeString(sbatch, """
                #!/bin/sh
                out=$(/usr/bin/sbatch "$@") || exit $?
                if [ -e %1$s/gate ]; then
                  echo "$PPID" > %1$s/gate.agent
                  while [ -e %1$s/gate ]; do sleep 0.05; done
                fi
                printf '%%s\\n' "$out"
                """.formatted(dir));
        Files.setPosixFilePermissions(sbatch, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    @AfterAll
    static void stopCluster() {
        for (AutoCloseable closeable : new AutoCloseable[] {workstation, login, cluster}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                // the others are stopped all the same
            }
        }
    }

    /** No test leaves work behind for the next: nvidb's live jobs cancelled, Slurm's queue empty. */
    @AfterEach
    void cancelWhatIsLeft() throws Exception {
        for (JsonNode job : run("job", "ls", "--json", "--active").path("jobs")) {
            Launcher.run(env(), "job", "cancel", job.path("id").asText());
        }
        cluster.command("scancel", "-p", SlurmCluster.PARTITION);
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (!cluster.command("squeue", "-h", "-o", "%i").isBlank()) {
            assertTrue(System.nanoTime() < deadline, cluster.command("squeue"));
            Thread.sleep(200);
        }
    }

    private static Map<String, String> env() {
        return Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"), "NVIDB_SUBMIT_TICK", "inline");
    }

    private static JsonNode run(String... args) throws Exception {
        Launcher.Run run = Launcher.run(env(), args);
        assertEquals(0, run.exitCode(), String.join(" ", args) + ": " + run.stderr() + run.stdout());
        return JSON.readTree(run.stdout());
    }

    private static long submit(String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("job", "submit", "--json"));
        line.addAll(List.of(args));
        return run(line.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private static JsonNode job(long id) throws Exception {
        return run("job", "show", "--json", String.valueOf(id)).path("job");
    }

    /** Ticks until the job's state is one of {@code states} (the ticks are what moves it). */
    private static JsonNode awaitState(long id, String... states) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(240).toNanos();
        while (true) {
            run("queue", "tick", "--json");
            JsonNode job = job(id);
            if (List.of(states).contains(job.path("state").asText())) {
                return job;
            }
            assertTrue(System.nanoTime() < deadline, "job " + id + " never reached " + List.of(states) + ": " + job
                    + "\n" + cluster.command("squeue", "-t", "all") + cluster.logs());
            Thread.sleep(300);
        }
    }

    /** Ticks until Slurm reports the job's Slurm job in {@code state} (as nvidb shows it in progress). */
    private static JsonNode awaitSlurm(long id, String state) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(120).toNanos();
        while (true) {
            run("queue", "tick", "--json");
            JsonNode job = job(id);
            if (job.path("progress").asText("").contains(": " + state)) {
                return job;
            }
            assertTrue(System.nanoTime() < deadline, "job " + id + " never " + state + " in Slurm: " + job);
            Thread.sleep(300);
        }
    }

    private static String logs(long id) throws Exception {
        Launcher.Run run = Launcher.run(env(), "job", "logs", String.valueOf(id));
        assertEquals(0, run.exitCode(), run.stderr());
        return run.stdout();
    }

    /** The Slurm jobs that carry nvidb's launch name for this job's token, as squeue lists them. */
    private static List<String> slurmJobsOf(String token) throws Exception {
        return cluster.command("squeue", "-h", "-t", "all", "-n", "nvidb-" + token, "-o", "%i|%T").lines()
                .filter(line -> !line.isBlank()).toList();
    }

    @Test
    void aJobSubmittedToTheClusterRunsAndCompletesWithSlurmsGpus() throws Exception {
        long id = submit("--node", "cluster", "--gpus", "1", "-n", "hello", "--",
                "echo hello from $(whoami) on $NVIDB_NODE gpu=$CUDA_VISIBLE_DEVICES slurm=$SLURM_JOB_ID");
        JsonNode job = awaitState(id, "completed", "failed", "lost");
        assertEquals("completed", job.path("state").asText(), job.toString());
        assertEquals(0, job.path("exit_code").asInt());
        assertEquals("cluster", job.path("node").asText());
        String out = logs(id);
        assertTrue(out.matches("(?s)hello from nvidbt90 on cluster gpu=\\d slurm=\\d+\\n"), out);
    }

    @Test
    void aFailingJobFailsWithItsExitCode() throws Exception {
        long id = submit("--node", "cluster", "--", "echo broken >&2; exit 3");
        JsonNode job = awaitState(id, "completed", "failed", "lost");
        assertEquals("failed", job.path("state").asText(), job.toString());
        assertEquals(3, job.path("exit_code").asInt());
        assertEquals("exit_code", job.path("failure_class").asText());
    }

    @Test
    void aPendingJobShowsSlurmsReasonAndACancelStopsItInSlurm() throws Exception {
        long big = submit("--node", "cluster", "--gpus", "2", "-n", "big", "--", "sleep 300");
        awaitSlurm(big, "RUNNING");
        long waiting = submit("--node", "cluster", "--gpus", "1", "-n", "waiting", "--", "echo never");
        JsonNode job = awaitSlurm(waiting, "PENDING");
        assertEquals("running", job.path("state").asText(), "handed to Slurm: " + job);
        // Slurm gives a pending job its reason at its next scheduling pass: until then squeue says
        // PENDING with reason None, and job why says just that.
        Launcher.Run why;
        long reasonBy = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (true) {
            why = Launcher.run(env(), "job", "why", String.valueOf(waiting));
            assertEquals(0, why.exitCode(), why.stderr());
            String said = why.stdout().replaceAll("\\s+", " ");
            assertTrue(said.contains("Slurm job ") && said.contains(": PENDING"), why.stdout());
            if (said.contains(": PENDING (Resources)") || System.nanoTime() > reasonBy) {
                break;
            }
            Thread.sleep(500); // a poll with a deadline
        }
        assertTrue(why.stdout().replaceAll("\\s+", " ").contains(": PENDING (Resources)"), why.stdout());
        Launcher.Run nodes = Launcher.run(env(), "queue", "nodes");
        assertTrue(nodes.stdout().contains("Slurm partition " + SlurmCluster.PARTITION + " up: nodes 1 allocated"),
                nodes.stdout());

        run("job", "cancel", String.valueOf(waiting), String.valueOf(big));
        assertEquals("cancelled", awaitState(big, "cancelled").path("state").asText());
        assertEquals("cancelled", awaitState(waiting, "cancelled").path("state").asText());
        String token = job(big).path("job_dir").asText();
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (!cluster.command("squeue", "-h", "-t", "all", "-o", "%j|%T").contains("|CANCELLED")
                || cluster.command("squeue", "-h", "-o", "%T").contains("RUNNING")) {
            assertTrue(System.nanoTime() < deadline, "Slurm still runs the cancelled job " + token + ": "
                    + cluster.command("squeue", "-t", "all"));
            Thread.sleep(200);
        }
    }

    @Test
    void slurmsTimeLimitEndsTheJobAsTimedOut() throws Exception {
        long id = submit("--node", "cluster-1min", "--", "sleep 600");
        JsonNode job = awaitState(id, "timeout", "failed", "lost", "completed");
        assertEquals("timeout", job.path("state").asText(), job.toString());
        assertTrue(job.path("last_error").asText().contains("TIMEOUT"), job.toString());
    }

    @Test
    void aNodeFailureLosesTheJob() throws Exception {
        long id = submit("--node", "cluster", "-n", "doomed", "--", "sleep 600");
        awaitSlurm(id, "RUNNING");
        cluster.command("scontrol", "update", "nodename=" + cluster.nodeName(), "state=down", "reason=nvidb-test");
        try {
            JsonNode job = awaitState(id, "lost", "failed", "completed");
            assertEquals("lost", job.path("state").asText(), job.toString());
            assertTrue(job.path("last_error").asText().contains("NODE_FAIL"), job.toString());
            assertEquals("lost", job.path("failure_class").asText());
        } finally {
            cluster.command("scontrol", "update", "nodename=" + cluster.nodeName(), "state=resume");
        }
    }

    @Test
    void aJobTheWorkstationCannotFitGoesToSlurmWhenAllowedAndOneThatFitsStaysThere() throws Exception {
        long fits = submit("--gpus", "1", "--allow-slurm", "-n", "fits", "--", "echo on $NVIDB_NODE");
        long big = submit("--gpus", "2", "--allow-slurm", "-n", "too-big", "--", "echo on $NVIDB_NODE");
        long notAllowed = submit("--gpus", "2", "-n", "too-big-here", "--", "echo never");
        JsonNode done = awaitState(big, "completed", "failed", "lost");
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals("cluster", done.path("node").asText());
        assertTrue(done.path("allow_slurm").asBoolean(), done.toString());
        assertEquals("on cluster\n", logs(big));
        JsonNode small = awaitState(fits, "completed", "failed", "lost");
        assertEquals("ws", small.path("node").asText(), small.toString());
        JsonNode refused = awaitState(notAllowed, "failed");
        assertTrue(refused.path("last_error").asText().startsWith("unschedulable"), refused.toString());
        Launcher.Run status = Launcher.run(env(), "queue", "status");
        assertTrue(status.stdout().contains("Slurm partition " + SlurmCluster.PARTITION + " up"),
                "the partition appears in queue status: " + status.stdout());
    }

    @Test
    void aTickKilledBetweenSbatchAndRecordingItDoesNotSubmitTwice() throws Exception {
        Path gate = bin.resolve("gate");
        Files.writeString(gate, "");
        Path output = home.resolve("killed-submit.out");
        Process submit = Launcher.start(env(), output, "job", "submit", "--node", "cluster", "-n", "once", "--",
                "echo ran once");
        Path agent = bin.resolve("gate.agent");
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(120).toNanos();
        while (!Files.exists(agent) || Files.readString(agent).isBlank()) {
            assertTrue(System.nanoTime() < deadline && submit.isAlive(), "sbatch never ran: "
                    + Files.readString(output));
            Thread.sleep(50);
        }
        // Slurm has the job; nvidb has not recorded it: kill the tick and the agent it started.
        submit.destroyForcibly().waitFor();
        new ProcessBuilder("kill", "-KILL", Files.readString(agent).strip()).start().waitFor();
        Files.delete(gate);
        JsonNode listed = run("job", "ls", "--json");
        long id = 0;
        for (JsonNode entry : listed.path("jobs")) {
            if (entry.path("name").asText().equals("once")) {
                id = entry.path("id").asLong();
            }
        }
        assertTrue(id > 0, listed.toString());
        JsonNode job = awaitState(id, "completed", "failed", "lost");
        assertEquals("completed", job.path("state").asText(), job.toString());
        String token = Files.readString(login.home().resolve(".nvidb/jobs").resolve(
                job.path("job_dir").asText().replaceFirst("^~/\\.nvidb/jobs/", "")).resolve("token")).strip();
        assertEquals(1, slurmJobsOf(token).size(), "one Slurm job for the launch: " + slurmJobsOf(token));
        assertEquals("ran once\n", logs(id));
    }
}
