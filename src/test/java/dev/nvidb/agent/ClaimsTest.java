package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The node's side of sharing GPUs between queues (docs/sharing.md): a launch takes its claim under
 * the claims directory's lock and loses the card when another queue's live claim leaves too little;
 * the claim ends with its wrapper; claims another user could forge or plant are ignored; an unsafe
 * claims directory is refused. Every agent here is the real one, run as a probe runs it.
 */
class ClaimsTest extends LocalJobs {

    private static final String GPU = "GPU-shared-0";
    private static final long CARD = 24576;

    private void card(long usedMib, long... processes) {
        FakeGpuState gpus = FakeGpuState.create().gpu(0, "NVIDIA RTX 4090", CARD).uuid(0, GPU).used(0, usedMib);
        for (int i = 0; i + 1 < processes.length; i += 2) {
            gpus.process(0, ProcessKind.COMPUTE, processes[i], processes[i + 1]);
        }
        gpus.writeTo(state);
    }

    private LaunchRequest claiming(long id, long mib, boolean exclusive, String command) {
        JobSpec spec = new JobSpec("job-" + id, "cd \"$NVIDB_JOB_DIR\" || exit 1; " + command, 1, mib, null, null,
                Map.of(), List.of(), null, 0, List.of(), "tester@here");
        Assignment assignment = new Assignment("local", List.of(0), List.of(GPU), 1, "token-" + id);
        return new LaunchRequest(id, 1, "token-" + id, JobQuery.directory(ROOT, id, 1),
                RunScript.render(id, spec, assignment), LaunchRequest.SlurmAsk.NONE,
                new LaunchRequest.Claim(List.of(GPU), mib, exclusive, null));
    }

    private static AgentRequest as(String queue) {
        return AgentRequest.probe(ROOT).withClaims(new AgentRequest.Claims(null, queue, queue + "-host"));
    }

    private LaunchReport launchAs(String queue, LaunchRequest launch) {
        LaunchReport report = agent.send(as(queue).withoutSnapshot().withLaunches(List.of(launch))).launches().get(0);
        if (report.wrapper() != null) {
            remember(report.wrapper().pid());
        }
        return report;
    }

    private NodeClaims claimsSeenBy(String queue) {
        return agent.send(as(queue)).snapshot().claims();
    }

    @Test
    void aSecondQueueLosesTheCardWhileTheFirstClaimLivesAndGetsItOnceTheJobEnds() throws Exception {
        card(0);
        LaunchRequest first = claiming(1, 16384, false, "sleep 60");
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("laptop", first).outcome());

        LaunchReport lost = launchAs("desk", claiming(2, 16384, false, "true"));
        assertEquals(LaunchReport.Outcome.LOST, lost.outcome(), lost.error());
        assertTrue(lost.error().contains("lost the card") && lost.error().contains("job 1 of queue laptop-host")
                && lost.error().contains("16.0G reserved"), lost.error());
        assertFalse(Files.exists(jobDir(2).resolve("token")), "nothing of the lost launch was written");

        NodeClaims seen = claimsSeenBy("desk");
        assertEquals(1, seen.live().size(), seen.toString());
        GpuClaim claim = seen.live().get(0);
        assertEquals(List.of(GPU), claim.gpuUuids());
        assertEquals(16384, claim.mib());
        assertEquals(1, claim.jobId());
        assertFalse(claim.ownQueue(), "another queue's claim");
        assertEquals(System.getProperty("user.name"), claim.user());
        assertTrue(claimsSeenBy("laptop").live().get(0).ownQueue(), "the launching queue's own claim");

        killAll(); // kill -9 of the job and its wrapper
        assertEquals(List.of(), claimsSeenBy("desk").live(), "a claim ends with its wrapper");
        assertEquals(List.of(), claimFiles(), "and its owner's probe removed the file");
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("desk", claiming(3, 16384, false, "true")).outcome());
    }

    @Test
    void twoClaimsThatFitTogetherBothStartAndMemoryInUseCounts() throws Exception {
        card(4096, 424242, 4096); // a process outside any queue holds 4 GiB
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("a", claiming(1, 10000, false, "sleep 60")).outcome());
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("b", claiming(2, 10000, false, "sleep 60")).outcome());
        LaunchReport third = launchAs("c", claiming(3, 1000, false, "true"));
        assertEquals(LaunchReport.Outcome.LOST, third.outcome(), "4096 used + 2 x 10000 claimed + 1000 > 24576");
        assertTrue(third.error().contains("480 MiB free of 24576"), third.error());
    }

    @Test
    void anExclusiveClaimNeedsAnEmptyCardAndKeepsEveryoneElseOff() throws Exception {
        card(0);
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("a", claiming(1, 0, true, "sleep 60")).outcome());
        LaunchReport small = launchAs("b", claiming(2, 100, false, "true"));
        assertEquals(LaunchReport.Outcome.LOST, small.outcome());
        assertTrue(small.error().contains("held whole by"), small.error());
        killAll();
        card(10, 777777, 10);
        LaunchReport busy = launchAs("b", claiming(3, 0, true, "true"));
        assertEquals(LaunchReport.Outcome.LOST, busy.outcome(), "a process is on the card");
        assertTrue(busy.error().contains("is not empty"), busy.error());
    }

    @Test
    void aCardThatCannotBeReadAtTheCheckIsNotGivenAwayWhileItHoldsAClaim() throws Exception {
        card(0);
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("laptop", claiming(1, 16384, false, "sleep 60")).outcome());
        FakeGpuState.create().gpu(0, "NVIDIA RTX 4090", CARD).uuid(0, GPU).gpuError(0, FakeGpuState.NVML_ERROR_UNKNOWN)
                .writeTo(state);
        LaunchReport unread = launchAs("desk", claiming(2, 1024, false, "true"));
        assertEquals(LaunchReport.Outcome.LOST, unread.outcome(), unread.toString());
        assertTrue(unread.error().contains("cannot be read now and holds claims")
                && unread.error().contains("job 1 of queue laptop-host"), unread.error());
        killAll();
        LaunchReport unclaimed = launchAs("desk", claiming(3, 1024, false, "true"));
        assertEquals(LaunchReport.Outcome.STARTED, unclaimed.outcome(), "no claim on it: the queue's plan stands");
    }

    @Test
    void twoQueuesRacingForOneCardNeverBothStart() throws Exception {
        card(0);
        int rounds = Integer.getInteger("nvidb.claims.rounds", 200);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int started = 0;
        try {
            for (int round = 0; round < rounds; round++) {
                List<Future<LaunchReport>> racing = new ArrayList<>();
                for (String queue : List.of("left", "right")) {
                    long id = round * 2L + (queue.equals("left") ? 1 : 2);
                    Callable<LaunchReport> launch = () -> launchAs(queue, claiming(id, 16384, false, "sleep 60"));
                    racing.add(pool.submit(launch));
                }
                int here = 0;
                List<LaunchReport> reports = new ArrayList<>();
                for (Future<LaunchReport> future : racing) {
                    LaunchReport report = future.get();
                    reports.add(report);
                    assertTrue(report.outcome() == LaunchReport.Outcome.STARTED
                            || report.outcome() == LaunchReport.Outcome.LOST, report.toString());
                    here += report.outcome() == LaunchReport.Outcome.STARTED ? 1 : 0;
                }
                String seen = "round " + round + ": " + reports + "; claims on the node: " + claimContents();
                assertEquals(1, here, "exactly one of two 16 GiB jobs on a 24 GiB card, " + seen);
                assertEquals(1, claimFiles().size(), "one claim on the node, " + seen);
                started += here;
                killAll();
                assertEquals(List.of(), claimsSeenBy("left").live(), "round " + round + ": the claim ended with its job");
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(rounds, started);
    }

    @Test
    void plantedForgedAndGarbageClaimsAreIgnoredWithAWarningEach() throws Exception {
        card(0);
        Path claims = Files.createDirectories(agent.claimsDir());
        Files.setPosixFilePermissions(claims, PosixFilePermissions.fromString("rwxrwxrwx"));
        run("chmod", "+t", claims.toString());
        String precious = big(16384);
        Path victim = Files.writeString(dir.resolve("victim.json"), precious);
        Files.createSymbolicLink(claims.resolve("claim-link.json"), victim);
        Files.writeString(claims.resolve("claim-garbage.json"), "{not json");
        Files.writeString(claims.resolve("claim-huge.json"), " ".repeat(5000) + big(16384));
        Files.writeString(claims.resolve("claim-dead.json"), dead(16384));
        Files.writeString(claims.resolve("notaclaim.txt"), "ignored silently");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            Files.writeString(claims.resolve("claim-forged.json"), big(16384)); // says uid 0, owned by 12345
            run("chown", "12345", claims.resolve("claim-forged.json").toString());
        }

        NodeClaims seen = claimsSeenBy("q");
        assertEquals(List.of(), seen.live(), seen.toString());
        List<String> warnings = seen.warnings();
        assertTrue(warnings.stream().anyMatch(w -> w.contains("claim-link.json") && w.contains("symbolic link")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("claim-garbage.json") && w.contains("not a claim")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("claim-huge.json") && w.contains("more than a claim holds")), warnings.toString());
        assertEquals(root ? 4 : 3, warnings.size(), warnings.toString());
        if (root) {
            assertTrue(warnings.stream().anyMatch(w -> w.contains("claim-forged.json") && w.contains("uid 12345 owns")), warnings.toString());
        }
        assertFalse(Files.exists(claims.resolve("claim-dead.json")), "this user's dead claim removed by its probe");
        assertEquals(precious, Files.readString(victim), "nothing followed the link");
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("q", claiming(1, 20000, false, "true")).outcome(),
                "none of them holds the card");
    }

    @Test
    void aClaimsDirectoryOthersCouldChangeIsRefusedLikeAnUntrustedJobRoot() throws Exception {
        card(0);
        Path claims = Files.createDirectories(agent.claimsDir());
        Files.setPosixFilePermissions(claims, PosixFilePermissions.fromString("rwxrwxrwx"));
        LaunchReport notSticky = launchAs("q", claiming(1, 100, false, "true"));
        assertEquals(LaunchReport.Outcome.FAILED, notSticky.outcome());
        assertTrue(notSticky.error().contains("not sticky") && notSticky.error().contains("chmod +t"), notSticky.error());
        assertTrue(claimsSeenBy("q").error().contains("not sticky"), "the probe says so too");

        Files.delete(claims);
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        run("chmod", "1777", elsewhere.toString());
        Files.createSymbolicLink(claims, elsewhere);
        LaunchReport link = launchAs("q", claiming(2, 100, false, "true"));
        assertEquals(LaunchReport.Outcome.FAILED, link.outcome());
        assertTrue(link.error().contains("is not a directory"), link.error());

        assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root (CI runs as root)");
        Files.delete(claims);
        Files.createDirectories(claims);
        Files.setPosixFilePermissions(claims, PosixFilePermissions.fromString("rwxr-xr-x"));
        run("chown", "12345", claims.toString());
        LaunchReport foreign = launchAs("q", claiming(3, 100, false, "true"));
        assertEquals(LaunchReport.Outcome.FAILED, foreign.outcome());
        assertTrue(foreign.error().contains("owned by uid 12345"), foreign.error());

        run("chmod", "1777", claims.toString()); // the shared folder the node's first user made
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("q", claiming(4, 100, false, "true")).outcome());
    }

    @Test
    void aMissingClaimsDirectoryIsMadeStickyAndWorldWritable() throws Exception {
        card(0);
        assertFalse(Files.exists(agent.claimsDir()));
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("q", claiming(1, 100, false, "sleep 60")).outcome());
        assertEquals("rwxrwxrwt", output("stat", "-c", "%A", agent.claimsDir().toString()).strip().substring(1));
        Path file = claimFiles().get(0);
        assertEquals("rw-r--r--", permissions(file), "every queue reads it, only its owner changes it");
    }

    private NodeClaims publishing(String queue, AgentRequest.Demand demand) {
        AgentRequest request = AgentRequest.probe(ROOT).withClaims(
                new AgentRequest.Claims(null, queue, queue + "-host").withDemand(demand));
        return agent.send(request).snapshot().claims();
    }

    @Test
    void aQueuesWaitingDemandIsPublishedForTheOthersAndGoesWhenNothingWaits() throws Exception {
        card(0);
        NodeClaims own = publishing("laptop", new AgentRequest.Demand(3, 1, 16384, false, 1_700_000_000L));
        assertEquals(1, own.demand().size(), own.toString());
        assertTrue(own.demand().get(0).ownQueue() && own.foreignDemand().isEmpty(), own.toString());
        NodeClaims other = claimsSeenBy("desk");
        assertEquals(1, other.foreignDemand().size(), other.toString());
        QueueDemand seen = other.foreignDemand().get(0);
        assertEquals(List.of(3, 1, 16384L, 1_700_000_000L, "laptop-host"),
                List.of(seen.waiting(), seen.gpus(), seen.mib(), seen.oldestAt(), seen.queueName()));
        assertTrue(seen.describe().contains("waits with 3 GPU jobs (smallest 1 x 16.0G) in queue laptop-host"),
                seen.describe());
        assertEquals("rw-r--r--", permissions(agent.claimsDir().resolve("demand-" + output("id", "-u").strip()
                + "-laptop.json")));

        publishing("laptop", AgentRequest.Demand.NONE);
        assertEquals(List.of(), claimsSeenBy("desk").demand(), "nothing waits: the file is gone");
    }

    @Test
    void aLaunchRoundPublishesTheDemandLeftSoAStartedJobNoLongerWaits() throws Exception {
        card(0);
        publishing("laptop", new AgentRequest.Demand(2, 1, 4096, false, 1_700_000_000L));
        LaunchRequest launch = claiming(1, 4096, false, "sleep 60");
        AgentRequest round = as("laptop").withClaims(new AgentRequest.Claims(null, "laptop", "laptop-host")
                .withDemand(new AgentRequest.Demand(1, 1, 4096, false, 1_700_000_100L)));
        LaunchReport started = agent.send(round.withoutSnapshot().withLaunches(List.of(launch))).launches().get(0);
        assertEquals(LaunchReport.Outcome.STARTED, started.outcome(), started.error());
        remember(started.wrapper().pid());
        NodeClaims seen = claimsSeenBy("desk");
        assertEquals(List.of(1, 1_700_000_100L), List.of(seen.foreignDemand().get(0).waiting(),
                seen.foreignDemand().get(0).oldestAt()), seen.toString());
        assertEquals(1, seen.foreignOn(GPU).size(), "the started job's claim: " + seen);

        LaunchRequest tooBig = claiming(2, CARD, false, "true");
        AgentRequest nothingLeft = as("laptop").withClaims(new AgentRequest.Claims(null, "laptop", "laptop-host")
                .withDemand(AgentRequest.Demand.NONE));
        LaunchReport lost = agent.send(nothingLeft.withoutSnapshot().withLaunches(List.of(tooBig))).launches().get(0);
        assertEquals(LaunchReport.Outcome.LOST, lost.outcome(), lost.error());
        assertEquals(1, claimsSeenBy("desk").foreignDemand().size(),
                "a launch that lost its card leaves the probe's demand: its job still waits");
    }

    @Test
    void staleForgedAndLinkedDemandIsIgnored() throws Exception {
        card(0);
        Path claims = Files.createDirectories(agent.claimsDir());
        run("chmod", "1777", claims.toString());
        long uid = Long.parseLong(output("id", "-u").strip());
        double now = System.currentTimeMillis() / 1000.0;
        Files.writeString(claims.resolve("demand-" + uid + "-old.json"), demand(uid, "old", now - 600));
        Files.createSymbolicLink(claims.resolve("demand-" + uid + "-link.json"), claims.resolve("demand-" + uid + "-old.json"));
        Files.writeString(claims.resolve("demand-" + uid + "-junk.json"), "[]");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            Files.writeString(claims.resolve("demand-0-forged.json"), demand(0, "forged", now));
            run("chown", "12345", claims.resolve("demand-0-forged.json").toString());
        }
        NodeClaims seen = claimsSeenBy("desk");
        assertEquals(List.of(), seen.demand(), seen.toString());
        assertTrue(seen.warnings().stream().anyMatch(w -> w.contains("demand-" + uid + "-link.json") && w.contains("symbolic link")),
                seen.warnings().toString());
        assertTrue(seen.warnings().stream().anyMatch(w -> w.contains("-junk.json") && w.contains("not a demand")),
                seen.warnings().toString());
        if (root) {
            assertTrue(seen.warnings().stream().anyMatch(w -> w.contains("demand-0-forged.json") && w.contains("uid 12345 owns")),
                    seen.warnings().toString());
        }
        assertFalse(Files.exists(claims.resolve("demand-" + uid + "-old.json")), "this user's stale demand removed");
    }

    @Test
    void theNodesPolicyIsReadOnlyFromItsAdministrator() throws Exception {
        card(0);
        Path claims = Files.createDirectories(agent.claimsDir());
        run("chmod", "1777", claims.toString());
        Path policy = Files.writeString(claims.resolve("policy.yml"), "share: fair\n");
        run("chmod", "0644", policy.toString());
        NodeClaims seen = claimsSeenBy("q");
        assertEquals("share: fair\n", seen.policy(), seen.toString());
        assertNull(seen.policyError());

        run("chmod", "0666", policy.toString());
        seen = claimsSeenBy("q");
        assertNull(seen.policy());
        assertTrue(seen.policyError().contains("others may write it") && seen.policyError().contains("chmod go-w"),
                seen.policyError());

        Files.delete(policy);
        Path planted = Files.writeString(dir.resolve("planted.yml"), "share: fair\n");
        Files.createSymbolicLink(policy, planted);
        assertTrue(claimsSeenBy("q").policyError().contains("a symbolic link"));

        assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root (CI runs as root)");
        Files.delete(policy);
        Files.writeString(policy, "share: fair\n");
        run("chmod", "0644", policy.toString());
        run("chown", "12345", policy.toString());
        assertTrue(claimsSeenBy("q").policyError().contains("owned by uid 12345"), "a stranger's policy");
    }

    @Test
    void aCapIsCheckedUnderTheLockAgainstEveryClaimOfTheUser() throws Exception {
        FakeGpuState.create().gpu(0, "NVIDIA RTX 4090", CARD).uuid(0, GPU).gpu(1, "NVIDIA RTX 4090", CARD)
                .uuid(1, "GPU-shared-1").writeTo(state);
        assertEquals(LaunchReport.Outcome.STARTED, launchAs("laptop", claiming(1, 4096, false, "sleep 60")).outcome());
        LaunchRequest.Cap oneGpu = new LaunchRequest.Cap(1, null);
        LaunchReport second = launchAs("desk", capped(claimingOn(2, "GPU-shared-1", 4096), oneGpu));
        assertEquals(LaunchReport.Outcome.LOST, second.outcome(), "the same user's other queue holds the one GPU");
        assertTrue(second.error().contains("caps") && second.error().contains("at 1 GPUs here and they hold 1"),
                second.error());
        LaunchReport vram = launchAs("desk", capped(claimingOn(3, "GPU-shared-1", 4096), new LaunchRequest.Cap(null, 6144L)));
        assertEquals(LaunchReport.Outcome.LOST, vram.outcome());
        assertTrue(vram.error().contains("at 6144 MiB here and they hold 4096"), vram.error());
        assertEquals(LaunchReport.Outcome.STARTED,
                launchAs("desk", capped(claimingOn(4, "GPU-shared-1", 2048), new LaunchRequest.Cap(2, 6144L))).outcome());
    }

    private LaunchRequest claimingOn(long id, String uuid, long mib) {
        JobSpec spec = new JobSpec("job-" + id, "cd \"$NVIDB_JOB_DIR\" || exit 1; sleep 60", 1, mib, null, null,
                Map.of(), List.of(), null, 0, List.of(), "tester@here");
        Assignment assignment = new Assignment("local", List.of(1), List.of(uuid), 1, "token-" + id);
        return new LaunchRequest(id, 1, "token-" + id, JobQuery.directory(ROOT, id, 1),
                RunScript.render(id, spec, assignment), LaunchRequest.SlurmAsk.NONE,
                new LaunchRequest.Claim(List.of(uuid), mib, false, null));
    }

    private static LaunchRequest capped(LaunchRequest launch, LaunchRequest.Cap cap) {
        LaunchRequest.Claim claim = launch.claim();
        return new LaunchRequest(launch.id(), launch.attempt(), launch.token(), launch.dir(), launch.script(), launch.ask(),
                new LaunchRequest.Claim(claim.gpuUuids(), claim.mib(), claim.exclusive(), claim.timeoutSeconds(), cap));
    }

    private static String demand(long uid, String queue, double updatedAt) {
        return "{\"uid\": " + uid + ", \"user\": \"someone\", \"queue\": \"" + queue + "\", \"waiting\": 2, \"gpus\": 1,"
                + " \"mib\": 1024, \"exclusive\": false, \"oldest_at\": 1.0, \"updated_at\": " + updatedAt + "}";
    }

    private static String big(long mib) {
        return "{\"uid\": 0, \"user\": \"root\", \"queue\": \"planted\", \"job\": 9, \"attempt\": 1, \"gpus\": [\""
                + GPU + "\"], \"mib\": " + mib + ", \"created_at\": " + System.currentTimeMillis() / 1000.0 + "}";
    }

    private String dead(long mib) {
        long uid = Long.parseLong(output("id", "-u").strip());
        return "{\"uid\": " + uid + ", \"user\": \"me\", \"queue\": \"old\", \"job\": 8, \"attempt\": 1, \"gpus\": [\""
                + GPU + "\"], \"mib\": " + mib + ", \"pid\": 1, \"start_ticks\": 999999999, \"created_at\": 1.0}";
    }

    /** Each claim file's name and text, for a failure message. */
    private String claimContents() throws Exception {
        StringBuilder text = new StringBuilder();
        for (Path file : claimFiles()) {
            text.append(file.getFileName()).append(" = ").append(read(file).strip()).append("; ");
        }
        return text.toString();
    }

    private List<Path> claimFiles() throws Exception {
        if (!Files.isDirectory(agent.claimsDir())) {
            return List.of();
        }
        try (var files = Files.list(agent.claimsDir())) {
            return files.filter(file -> file.getFileName().toString().startsWith("claim-")).toList();
        }
    }
}
