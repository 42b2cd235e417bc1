package dev.nvidb.integration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.integration.BenchHome.Timed;
import dev.nvidb.integration.BenchReport.Row;
import dev.nvidb.testing.LatencyRelay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.nvidb.integration.BenchReport.median;
import static dev.nvidb.integration.BenchReport.ms;
import static dev.nvidb.integration.BenchReport.quantile;
import static dev.nvidb.integration.BenchReport.ratio;
import static dev.nvidb.integration.BenchReport.verdict;

/**
 * {@code bench/run}: every figure the issues set a target for, from cold {@code bin/nvidb}
 * processes against real OpenSSH nodes with the shipped default configuration ({@code queue.yml}
 * names the servers and nothing else), each without and with the queue's daemon, and a tick
 * across a simulated network. Prints the tables and writes them into {@code docs/benchmarks.md}.
 *
 * <p>Usage: {@code BenchRun PROJECT BUILD [--runs N] [--loop N] [--quick] [--only SECTIONS] [--no-write]}
 * with sections {@code startup ls plan nodes hung submit network claims}. Needs root (sshd, login users).
 * Not a test: a main on the test class path, run by {@code bench/run}.
 */
public final class BenchRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The shipped {@code tick_min_interval} is 2 s: a status this long after the last tick ticks again. */
    private static final long TICK_SPACING_MS = 2_300;
    private static final int SUBMITTERS = 16;

    private final Path project;
    private final Path build;
    private final Path work;
    private final int runs;
    private final int loop;
    private final int submitsEach;
    private final Set<String> only;
    private final BenchReport report = new BenchReport();
    private final Map<String, Long> lastTick = new HashMap<>();
    private BenchLab lab;
    private Path soloKey;

    private BenchRun(Path project, Path build, Path work, int runs, int loop, int submitsEach, Set<String> only) {
        this.project = project;
        this.build = build;
        this.work = work;
        this.runs = runs;
        this.loop = loop;
        this.submitsEach = submitsEach;
        this.only = only;
    }

    public static void main(String[] args) throws Exception {
        Path project = Path.of(args[0]).toAbsolutePath();
        Path build = Path.of(args[1]).toAbsolutePath();
        int runs = 7;
        int loop = 200;
        int submitsEach = 4;
        boolean write = true;
        Set<String> only = new LinkedHashSet<>(List.of("startup", "ls", "plan", "nodes", "hung", "submit", "network",
                "claims"));
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--loop" -> loop = Integer.parseInt(args[++i]);
                case "--quick" -> {
                    runs = 3;
                    loop = 50;
                    submitsEach = 2;
                }
                case "--only" -> only = new LinkedHashSet<>(List.of(args[++i].split("[ ,]+")));
                case "--no-write" -> write = false;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path work = Files.createTempDirectory("nvidb-bench");
        BenchRun bench = new BenchRun(project, build, work, runs, loop, submitsEach, only);
        try {
            bench.run();
        } finally {
            if (bench.lab != null) {
                bench.lab.close();
            }
            new ProcessBuilder("rm", "-rf", work.toString()).start().waitFor();
        }
        if (write && only.size() == 8) {
            bench.report.writeInto(project.resolve("docs/benchmarks.md"));
            System.out.println("written into docs/benchmarks.md");
        } else if (write) {
            System.out.println("a subset of sections: docs/benchmarks.md left as it was");
        }
    }

    private void run() throws Exception {
        header();
        boolean needsNodes = only.stream().anyMatch(s -> Set.of("nodes", "hung", "submit", "network", "claims").contains(s));
        if (needsNodes) {
            lab = BenchLab.start(work, 8, 4, build.resolve("fake-nvml"));
        }
        if (only.contains("startup")) {
            startup();
        }
        if (only.contains("ls")) {
            listing();
        }
        if (only.contains("plan")) {
            planning();
        }
        if (only.contains("nodes")) {
            nodes();
        }
        if (only.contains("hung")) {
            hung();
        }
        if (only.contains("submit")) {
            submitting();
        }
        if (only.contains("network")) {
            network();
        }
        if (only.contains("claims")) {
            claims();
        }
        report.header("");
        report.note("load average at the end: " + load());
    }

    private void header() throws IOException, InterruptedException {
        String commit = capture("git", "-C", project.toString(), "rev-parse", "--short", "HEAD");
        boolean dirty = !capture("git", "-C", project.toString(), "status", "--porcelain", "--untracked-files=no").isEmpty();
        String ssh = capture("bash", "-c", "ssh -V 2>&1 | cut -d, -f1");
        String memory = capture("awk", "/MemTotal/ {printf \"%.0f GiB\", $2 / 1048576}", "/proc/meminfo");
        String javaVersion = capture("bash", "-c", "java -version 2>&1 | head -1");
        report.header(String.format(Locale.ROOT, "Measured %s at commit `%s`%s on %d cores, %s, Linux %s, %s, %s; "
                        + "load average at the start: %s. Medians of %d cold `bin/nvidb` runs (their own wall time, "
                        + "fork to exit) unless a row says otherwise.",
                Instant.now().toString().substring(0, 16).replace('T', ' ') + " UTC", commit, dirty ? " (+ uncommitted changes)" : "",
                Runtime.getRuntime().availableProcessors(), memory, capture("uname", "-r"), javaVersion, ssh, load(), runs));
        report.header("");
        report.header("Nodes are Debian's OpenSSH `sshd` (the integration suite's harness: one login user each, four "
                + "idle fake H100s from the fake NVML library, the real python3 agent) on this same machine, so their "
                + "work shares its cores with the client's. Each home's `queue.yml` lists its servers and nothing "
                + "else: the shipped defaults (`tick_min_interval` 2 s, so runs that must tick are spaced "
                + TICK_SPACING_MS / 1000.0 + " s apart). \"With the daemon\": `nvidb queue daemon` runs for that home, "
                + "and commands reach it through its socket (the warm path).");
    }

    // ---- start-up ----------------------------------------------------------------------------

    private void startup() throws Exception {
        BenchHome home = home("startup", List.of());
        List<Double> walls = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            walls.add(checked(home.run("--version")).ms());
        }
        double version = median(walls);
        report.row(new Row("`nvidb --version`", ms(version), "same (never handed over)", "≤ 200 ms", verdict(version <= 200)));
        long rss = home.peakRssKib("--version");
        report.row(new Row("peak RSS, `nvidb --version`", mib(rss), "—", "none set", "—"));
    }

    // ---- job ls --------------------------------------------------------------------------------

    private void listing() throws Exception {
        for (int count : List.of(1_000, 100_000)) {
            BenchHome home = home("ls" + count, List.of());
            long started = System.nanoTime();
            checked(java("dev.nvidb.bench.BenchQueueDb", home.database().toString(), Integer.toString(count), "3"));
            report.note(String.format(Locale.ROOT, "`job ls` database of %,d jobs made by `BenchQueueDb` in %.0f s "
                    + "(mixed states, tags, notes, results, environments; 3 nodes that the home does not configure)",
                    count, (System.nanoTime() - started) / 1e9));
            int times = count > 10_000 ? Math.max(3, (runs + 1) / 2) : runs;
            List<Double> without = new ArrayList<>();
            int listed = -1;
            for (int i = 0; i < times; i++) {
                Timed timed = checked(home.run("job", "ls", "--no-tick", "--json"));
                without.add(timed.ms());
                listed = JSON.readTree(timed.out()).get("jobs").size();
            }
            long rss = home.peakRssKib("job", "ls", "--no-tick", "--json");
            List<Double> with = new ArrayList<>();
            try (Daemon daemon = daemon(home)) {
                for (int i = 0; i < times; i++) {
                    with.add(checked(home.run("job", "ls", "--no-tick", "--json")).ms());
                }
            }
            double a = median(without);
            double b = median(with);
            String figure = String.format(Locale.ROOT, "`job ls --no-tick --json`, %,d jobs", listed);
            if (count == 1_000) {
                report.row(new Row(figure, ms(a), ms(b), "≤ 250 ms", verdict(a <= 250) + " / " + verdict(b <= 250)));
            } else {
                report.row(new Row(figure + " (" + times + " runs)", ms(a), ms(b), "none set", "—"));
            }
            report.row(new Row(String.format(Locale.ROOT, "peak RSS, `job ls --no-tick --json`, %,d jobs", listed),
                    mib(rss), "—", "none set", "—"));
        }
    }

    // ---- planning ------------------------------------------------------------------------------

    private void planning() throws Exception {
        Pattern spread = Pattern.compile("SPREAD : wall median ([0-9.]+) ms");
        for (int count : List.of(1_000, 10_000)) {
            Timed timed = checked(javaWithLauncherFlags("dev.nvidb.scheduler.LargeQueueTest", Integer.toString(count)));
            Matcher matcher = spread.matcher(timed.out());
            if (!matcher.find()) {
                throw new IOException("LargeQueueTest printed no SPREAD figure: " + timed.out());
            }
            double plan = Double.parseDouble(matcher.group(1));
            String target = count == 10_000 ? "≤ 100 ms" : "none set";
            report.row(new Row(String.format(Locale.ROOT, "planning %,d pending jobs, 64 nodes × 8 GPUs (in-process, warm, "
                    + "launcher's JVM flags)", count), String.format(Locale.ROOT, "%.1f ms", plan), "same (no I/O)", target,
                    count == 10_000 ? verdict(plan <= 100) : "—"));
        }
        // Bounds that were timed assertions in the fast suite (issue 27): figures, not tests.
        Path db = work.resolve("open-cost/queue.db");
        Files.createDirectories(db.getParent());
        Timed open = checked(javaWithLauncherFlags("dev.nvidb.store.OpenCostMain", db.toString()));
        Matcher warm = Pattern.compile("warm_median_ms=([0-9.]+)").matcher(open.out());
        if (!warm.find()) {
            throw new IOException("OpenCostMain printed no figure: " + open.out());
        }
        double openMs = Double.parseDouble(warm.group(1));
        report.row(new Row("opening an up-to-date queue.db and one read (in-process, warm, median of 200)",
                String.format(Locale.ROOT, "%.2f ms", openMs), "same", "≤ 25 ms (a migration re-run would show)",
                verdict(openMs <= 25)));
        Timed pcie = checked(javaWith(List.of("-Dnvidb.fake.nvml.dir=" + build.resolve("fake-nvml")),
                "dev.nvidb.agent.PcieProbeMain", Integer.toString(Math.max(3, runs))));
        Matcher probe = Pattern.compile("pcie_probe_median_ms=([0-9.]+)").matcher(pcie.out());
        if (!probe.find()) {
            throw new IOException("PcieProbeMain printed no figure: " + pcie.out());
        }
        double pcieMs = Double.parseDouble(probe.group(1));
        report.row(new Row("an agent probe of 4 GPUs whose PCIe samples take 500 ms each (one exec; 2 s if read in turn)",
                ms(pcieMs), "—", "≤ 2.5 s (read at once)", verdict(pcieMs <= 2500)));
    }

    // ---- a tick over 1, 4 and 8 nodes ------------------------------------------------------------

    private void nodes() throws Exception {
        List<BenchHome> homes = List.of(home("n1", nodes(1, 1)), home("n4", nodes(1, 4)), home("n8", nodes(1, 8)));
        Map<String, List<Double>> without = statusTicks(homes, runs);
        Map<String, List<Double>> with;
        List<Daemon> daemons = new ArrayList<>();
        try {
            for (BenchHome home : homes) {
                daemons.add(daemon(home));
            }
            with = statusTicks(homes, runs);
        } finally {
            daemons.forEach(Daemon::close);
        }
        double one = median(without.get("n1"));
        double oneWith = median(with.get("n1"));
        for (BenchHome home : homes) {
            double a = median(without.get(home.name()));
            double b = median(with.get(home.name()));
            int count = Integer.parseInt(home.name().substring(1));
            if (count == 1) {
                report.row(new Row("`queue status --json` with a tick, 1 node", ms(a), ms(b), "—", "—"));
            } else {
                report.row(new Row("`queue status --json` with a tick, " + count + " nodes", ms(a) + " (" + ratio(a, one) + ")",
                        ms(b) + " (" + ratio(b, oneWith) + ")", "≤ 600 ms and ≤ 1.3× 1 node",
                        verdict(a <= 600 && a <= 1.3 * one) + " / " + verdict(b <= 600 && b <= 1.3 * oneWith)));
            }
        }
    }

    /**
     * {@code queue status --json} in each home in turn, {@code times} rounds, each run spaced from
     * the home's last tick so the shipped rate limit lets it tick; a run that did not tick is
     * reported and not counted.
     */
    private Map<String, List<Double>> statusTicks(List<BenchHome> homes, int times) throws Exception {
        Map<String, List<Double>> walls = new HashMap<>();
        int skipped = 0;
        for (int i = 0; i < times + 1; i++) {
            for (BenchHome home : homes) {
                Timed timed = tickingStatus(home);
                if (i == 0) {
                    continue;   // the first contact: host keys read, SSH sessions cold on the nodes' side
                }
                if (timed == null) {
                    skipped++;
                } else {
                    walls.computeIfAbsent(home.name(), k -> new ArrayList<>()).add(timed.ms());
                }
            }
        }
        if (skipped > 0) {
            report.note(skipped + " `queue status` runs did not tick (not counted)");
        }
        return walls;
    }

    /** One {@code queue status --json} spaced from the home's last tick; null when it did not tick. */
    private Timed tickingStatus(BenchHome home) throws Exception {
        spaceFromLastTick(home);
        double before = System.currentTimeMillis() / 1000.0;
        Timed timed = home.run("queue", "status", "--json");
        lastTick.put(home.name(), System.currentTimeMillis());
        JsonNode status = JSON.readTree(timed.out());
        JsonNode last = status.path("last_tick_at");
        return last.isNumber() && last.asDouble() >= before - 0.5 ? timed : null;
    }

    private void spaceFromLastTick(BenchHome home) throws InterruptedException {
        long last = lastTick.getOrDefault(home.name(), 0L);
        long wait = last + TICK_SPACING_MS - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    // ---- GPU claims (issue 25) --------------------------------------------------------------------

    /**
     * What claims cost: the launch rows from {@code bench/claims.sh} (the real agent, one exec per
     * request, against the fake NVML), and a tick of one OpenSSH node whose claims directory is empty
     * against the same tick with 10 live claims of other queues there (read, checked, charged),
     * alternated, without and with the daemon.
     */
    private void claims() throws Exception {
        Timed agent = checked(timedCommand(List.of("bash", project.resolve("bench/claims.sh").toString(),
                String.valueOf(Math.max(20, runs * 6)))));
        Matcher line = Pattern.compile("bench-claims" + " ([0-9.]+)".repeat(8)).matcher(agent.out());
        if (!line.find()) {
            throw new IOException("bench/claims.sh printed no figures: " + agent.out());
        }
        double[] f = new double[8];
        for (int i = 0; i < 8; i++) {
            f[i] = Double.parseDouble(line.group(i + 1));
        }
        double one = f[1] - f[0];
        double each = (f[3] - f[2]) / 4;
        double resident = f[7] - f[6];
        report.row(new Row("a launch with its claim vs without (agent alone, `bench/claims.sh`): a cold exec; "
                + "the daemon's resident agent",
                String.format(Locale.ROOT, "%s vs %s (+%.1f ms)", ms(f[1]), ms(f[0]), one),
                String.format(Locale.ROOT, "%.1f vs %.1f ms (+%.1f ms)", f[7], f[6], resident), "≤ +5 ms per launch",
                verdict(one <= 5) + " / " + verdict(resident <= 5)));
        report.row(new Row("… four launches in one exec, with claims vs without: per launch",
                String.format(Locale.ROOT, "+%.1f ms (%s vs %s)", each, ms(f[3]), ms(f[2])), "—", "≤ +5 ms per launch",
                verdict(each <= 5)));

        OpenSshHost node = lab.host(1);
        Path busy = Path.of("/tmp/nvidb-bench-busy-claims");
        new ProcessBuilder("rm", "-rf", busy.toString()).start().waitFor();
        Files.createDirectories(busy);
        new ProcessBuilder("chmod", "1777", busy.toString()).start().waitFor();   // sticky: Java cannot say it
        BenchHome none = home("claims0", List.of("node1"));
        BenchHome ten = home("claims10", List.of());
        Files.writeString(ten.database().resolveSibling("queue.yml"),
                "servers:\n  - hostname: node1\n    claims_dir: " + busy + "\n");
        JsonNode first = JSON.readTree(checked(none.run("queue", "status", "--json")).out());
        String uuid = first.path("nodes").path(0).path("gpus").path(0).path("uuid").asText();
        Process holder = new ProcessBuilder("sleep", "3600").start();
        try {
            writeForeignClaims(busy, node, uuid, holder.pid(), 10);
            JsonNode seen = JSON.readTree(checked(ten.run("queue", "status", "--json")).out());
            int live = seen.path("nodes").path(0).path("gpus").path(0).path("claims").size();
            if (live != 10) {
                throw new IOException("the node reported " + live + " live claims, not 10: " + seen.path("nodes"));
            }
            Map<String, List<Double>> without = statusTicks(List.of(none, ten), runs);
            Map<String, List<Double>> with;
            List<Daemon> daemons = new ArrayList<>();
            try {
                daemons.add(daemon(none));
                daemons.add(daemon(ten));
                with = statusTicks(List.of(none, ten), runs);
            } finally {
                daemons.forEach(Daemon::close);
            }
            double a0 = median(without.get("claims0"));
            double a10 = median(without.get("claims10"));
            double b0 = median(with.get("claims0"));
            double b10 = median(with.get("claims10"));
            report.row(new Row("`queue status --json` with a tick, 1 node: 10 live claims of other queues vs none",
                    String.format(Locale.ROOT, "%s vs %s (%+.1f %%)", ms(a10), ms(a0), 100 * (a10 - a0) / a0),
                    String.format(Locale.ROOT, "%s vs %s (%+.1f %%)", ms(b10), ms(b0), 100 * (b10 - b0) / b0),
                    "within 5 %", verdict(a10 <= 1.05 * a0) + " / " + verdict(b10 <= 1.05 * b0)));
        } finally {
            holder.destroyForcibly();
            new ProcessBuilder("rm", "-rf", busy.toString()).start().waitFor();
        }
    }

    /**
     * {@code count} claims of other queues on the GPU, each held by the live process {@code pid},
     * owned by the node's login user as the agent requires (the file's owner is the uid inside).
     */
    private static void writeForeignClaims(Path dir, OpenSshHost node, String uuid, long pid, int count)
            throws IOException, InterruptedException {
        int uid = Integer.parseInt(capture("id", "-u", node.username()));
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String ticks = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19];
        String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        double now = System.currentTimeMillis() / 1000.0;
        for (int i = 0; i < count; i++) {
            Path file = dir.resolve("claim-" + uid + "-other" + i + "-" + (i + 1) + "-1.json");
            Map<String, Object> claim = new java.util.LinkedHashMap<>();
            claim.put("uid", uid);
            claim.put("user", node.username());
            claim.put("queue", "other" + i);
            claim.put("queue_name", "lab" + i);
            claim.put("job", i + 1);
            claim.put("attempt", 1);
            claim.put("gpus", List.of(uuid));
            claim.put("mib", 1024);
            claim.put("pid", pid);
            claim.put("start_ticks", Long.parseLong(ticks));
            claim.put("boot_id", boot);
            claim.put("created_at", now);
            Files.writeString(file, JSON.writeValueAsString(claim));
            new ProcessBuilder("chown", node.username(), file.toString()).start().waitFor();
        }
    }

    private Timed timedCommand(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true);
        long start = System.nanoTime();
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int exit = process.waitFor();
        return new Timed((System.nanoTime() - start) / 1e6, exit, out, exit == 0 ? "" : out);
    }

    // ---- a hung node ------------------------------------------------------------------------------

    private void hung() throws Exception {
        BenchHome withHung = home("h3", List.of("node5", "node6", "node7", "hung"));
        BenchHome calm = home("c3", List.of("node5", "node6", "node7"));
        Timed first = withHung.run("queue", "status", "--json");
        lastTick.put(withHung.name(), System.currentTimeMillis());
        List<Double> later = new ArrayList<>();
        List<Double> normal = new ArrayList<>();
        int retried = 0;
        tickingStatus(calm);
        for (int i = 0; i < runs; i++) {
            Timed timed = tickingStatus(withHung);
            Timed other = tickingStatus(calm);
            // The connect timeout is 2 s: a tick that paid it again (the hung node's back-off ran
            // out) is at least a second slower than the calm set's tick beside it.
            double calmTick = other != null ? other.ms() : 1_500;
            if (timed != null && timed.ms() > calmTick + 1_000) {
                retried++;
            } else if (timed != null) {
                later.add(timed.ms());
            }
            if (other != null) {
                normal.add(other.ms());
            }
        }
        double a = median(later);
        double b = median(normal);
        report.row(new Row("`queue status --json`, 3 nodes + 1 hung, first tick", ms(first.ms()), "—",
                "the connect timeout, once", "—"));
        report.row(new Row("the same, later ticks (hung node backing off) vs 3 nodes alone",
                ms(a) + " vs " + ms(b) + " (" + String.format(Locale.ROOT, "%+.0f ms", a - b) + ")", "—",
                "no more than 50 ms slower", Double.isNaN(a - b) ? "— (no tick without a retry)" : verdict(a - b <= 50)));
        if (retried > 0) {
            report.note(retried + " of " + runs + " later ticks of the hung set retried the hung node (its back-off had "
                    + "run out) and are not in that median");
        }
    }

    // ---- submitting ---------------------------------------------------------------------------------

    private void submitting() throws Exception {
        BenchHome home = home("s3", List.of("node6", "node7", "node8"));
        checked(home.run("queue", "nodes", "--json"));
        SubmitFigures without = submitFigures(home, "a", false);
        SubmitFigures with;
        try (Daemon daemon = daemon(home)) {
            with = submitFigures(home, "b", true);
        }
        report.row(new Row("`job submit --json -- true`, the first " + runs + " of a burst (the first starts the ticker)",
                ms(without.submit), ms(with.submit), "≤ 350 ms",
                verdict(without.submit <= 350) + " / " + verdict(with.submit <= 350)));
        report.row(new Row("`job submit -- sleep 1`, each of the " + loop + " in the loop below: median / 90th percentile",
                ms(without.loopMedian) + " / " + ms(without.loopP90), ms(with.loopMedian) + " / " + ms(with.loopP90),
                "median ≤ 350 ms", verdict(without.loopMedian <= 350) + " / " + verdict(with.loopMedian <= 350)));
        report.row(new Row(loop + " `job submit -- sleep 1` in a loop: total", ms(without.loopTotal), ms(with.loopTotal),
                "≤ " + (80 * loop / 200) + " s", verdict(without.loopTotal <= 400.0 * loop)
                        + " / " + verdict(with.loopTotal <= 400.0 * loop)));
        report.row(new Row("… each job's submit → start: median / max, later than 3 s", without.startDelays,
                with.startDelays, "every one ≤ 3 s", verdict(without.lateStarts == 0) + " / " + verdict(with.lateStarts == 0)));
        report.row(new Row("`job submit --wait -- true`, on its own (no ticker lingering)", ms(without.lone),
                ms(with.lone), "≤ 1.5 s", verdict(without.lone <= 1_500) + " / " + verdict(with.lone <= 1_500)));
        report.row(new Row("… the same with `--json`", ms(without.loneJson), ms(with.loneJson), "—", "—"));
        report.row(new Row(SUBMITTERS + " concurrent submitting processes × " + submitsEach + ": rate, errors",
                without.concurrent, with.concurrent, "no errors", verdict(without.concurrentErrors == 0) + " / "
                        + verdict(with.concurrentErrors == 0)));
        report.row(new Row("peak RSS, `job submit --json -- true`", mib(without.submitRss), "—", "none set", "—"));
    }

    private static final class SubmitFigures {
        double submit;
        long submitRss;
        double loopTotal;
        double loopMedian;
        double loopP90;
        String startDelays;
        int lateStarts;
        double lone;
        double loneJson;
        String concurrent;
        int concurrentErrors;
    }

    private SubmitFigures submitFigures(BenchHome home, String tag, boolean daemonRuns) throws Exception {
        SubmitFigures figures = new SubmitFigures();
        List<Double> walls = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            walls.add(checked(home.run("job", "submit", "--json", "--", "true")).ms());
        }
        figures.submit = median(walls);
        figures.submitRss = home.peakRssKib("job", "submit", "--json", "--", "true");
        idle(home);

        long start = System.nanoTime();
        List<Double> each = new ArrayList<>();
        for (int i = 1; i <= loop; i++) {
            each.add(checked(home.run("job", "submit", "-n", "loop-" + tag + "-" + i, "--", "sleep", "1")).ms());
        }
        figures.loopTotal = (System.nanoTime() - start) / 1e6;
        figures.loopMedian = median(each);
        figures.loopP90 = quantile(each, 0.9);
        List<Double> delays = startDelays(home, "loop-" + tag + "-", loop);
        figures.lateStarts = (int) delays.stream().filter(d -> d > 3.0).count();
        figures.startDelays = String.format(Locale.ROOT, "%.2f s / %.2f s, %d late", median(delays),
                delays.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN), figures.lateStarts);
        idle(home);

        // The command as it words it, and the agents' --json form, alternately.
        List<Double> lone = new ArrayList<>();
        List<Double> loneJson = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            if (!daemonRuns) {
                awaitNoTicker(home);   // on its own: no submit ticker left from the last submit
            }
            Timed plain = checked(home.run("job", "submit", "--wait", "--", "true"));
            if (!plain.out().strip().endsWith("completed exit 0")) {
                throw new IOException("submit --wait did not end completed: " + plain);
            }
            lone.add(plain.ms());
            if (!daemonRuns) {
                awaitNoTicker(home);
            }
            loneJson.add(checked(home.run("job", "submit", "--wait", "--json", "--", "true")).ms());
        }
        figures.lone = median(lone);
        figures.loneJson = median(loneJson);

        AtomicInteger errors = new AtomicInteger();
        ConcurrentLinkedQueue<String> firstErrors = new ConcurrentLinkedQueue<>();
        List<Thread> submitters = new ArrayList<>();
        long concurrentStart = System.nanoTime();
        for (int s = 0; s < SUBMITTERS; s++) {
            int submitter = s;
            Thread thread = new Thread(() -> {
                for (int k = 0; k < submitsEach; k++) {
                    try {
                        Timed timed = home.run("job", "submit", "--json", "-n", "conc-" + tag + "-" + submitter + "-" + k,
                                "--", "true");
                        if (!timed.ok() || !timed.err().isBlank()) {
                            errors.incrementAndGet();
                            firstErrors.add("exit " + timed.exit() + ": " + timed.err().strip());
                        }
                    } catch (IOException | InterruptedException e) {
                        errors.incrementAndGet();
                        firstErrors.add(e.toString());
                    }
                }
            });
            thread.start();
            submitters.add(thread);
        }
        for (Thread thread : submitters) {
            thread.join();
        }
        double wall = (System.nanoTime() - concurrentStart) / 1e6;
        int total = SUBMITTERS * submitsEach;
        List<JsonNode> recorded = jobs(home, "conc-" + tag + "-");
        Set<String> names = new HashSet<>();
        recorded.forEach(job -> names.add(job.get("name").asText()));
        figures.concurrentErrors = errors.get() + (recorded.size() != total || names.size() != total ? 1 : 0);
        figures.concurrent = String.format(Locale.ROOT, "%.1f/s, %d errors, %d of %d recorded once", total * 1000.0 / wall,
                errors.get(), names.size(), total);
        if (!firstErrors.isEmpty()) {
            report.note("concurrent submit error (" + tag + "): " + firstErrors.peek());
        }
        idle(home);
        return figures;
    }

    /** Waits (bounded, ticking as users do) until every job named PREFIX* has started; their submit → start delays in s. */
    private List<Double> startDelays(BenchHome home, String prefix, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        List<JsonNode> jobs = List.of();
        while (System.nanoTime() < deadline) {
            Timed timed = home.run("job", "ls", "--json");
            jobs = timed.ok() ? named(JSON.readTree(timed.out()), prefix) : List.of();
            if (jobs.size() == expected && jobs.stream().allMatch(job -> job.get("started_at").isNumber())) {
                break;
            }
            Thread.sleep(500);
        }
        List<Double> delays = new ArrayList<>();
        for (JsonNode job : jobs) {
            if (job.get("started_at").isNumber()) {
                delays.add(job.get("started_at").asDouble() - job.get("created_at").asDouble());
            }
        }
        if (delays.size() != expected) {
            report.note(prefix + ": " + delays.size() + " of " + expected + " jobs started within 180 s");
        }
        return delays;
    }

    /** Waits (bounded) until no job of the home is pending or running. */
    private void idle(BenchHome home) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            Timed timed = home.run("job", "ls", "--json", "--active");
            if (timed.ok() && JSON.readTree(timed.out()).get("jobs").isEmpty()) {
                return;
            }
            Thread.sleep(1_000);
        }
        report.note(home.name() + ": jobs still active after 180 s");
    }

    private List<JsonNode> jobs(BenchHome home, String prefix) throws Exception {
        return named(JSON.readTree(checked(home.run("job", "ls", "--no-tick", "--json")).out()), prefix);
    }

    private static List<JsonNode> named(JsonNode document, String prefix) {
        List<JsonNode> jobs = new ArrayList<>();
        for (JsonNode job : document.get("jobs")) {
            if (job.get("name").asText().startsWith(prefix)) {
                jobs.add(job);
            }
        }
        return jobs;
    }

    // ---- across a network -------------------------------------------------------------------------

    private void network() throws Exception {
        BenchHome one = home("w1", List.of("far1"));
        BenchHome four = home("w4", List.of("far1", "far2", "far3", "far4"));
        Map<Integer, Double> oneNode = new HashMap<>();
        for (int rtt : List.of(0, 20, 100)) {
            lab.roundTrip(Duration.ofMillis(rtt));
            Map<String, List<Double>> walls = statusTicks(List.of(one, four), runs);
            double a = median(walls.get("w1"));
            double b = median(walls.get("w4"));
            oneNode.put(rtt, a);
            long[] counted = countedTick(four);
            double busy = runningJobsTick(four);
            double daemon;
            try (Daemon running = daemon(four)) {
                daemon = median(statusTicks(List.of(four), runs).get("w4"));
            }
            String trips = rtt == 0 ? "—" : String.format(Locale.ROOT, "%.1f", (a - oneNode.get(0)) / rtt);
            report.network(String.format(Locale.ROOT, "| %d ms | %s | %s | %s | %s (%s) | %s | %s | %s |", rtt, ms(a), ms(b),
                    ratio(b, a), ms(busy), ratio(busy, b), trips,
                    String.format(Locale.ROOT, "%.1f, %.1f", counted[0] / 4.0, counted[1] / 4.0), ms(daemon)));
        }
    }

    /** One ticking status over the relayed nodes with the relays' counts reset first: {connections, turns}. */
    private long[] countedTick(BenchHome home) throws Exception {
        spaceFromLastTick(home);
        lab.relays().forEach(LatencyRelay::resetCounts);
        Timed timed = tickingStatus(home);
        if (timed == null) {
            return new long[] {-1, -1};
        }
        long connections = lab.relays().stream().mapToLong(LatencyRelay::connectionsAccepted).sum();
        long turns = lab.relays().stream().mapToLong(LatencyRelay::turns).sum();
        return new long[] {connections, turns};
    }

    /** The median ticking status with 16 CPU-only jobs running on the home's nodes (then cancelled). */
    private double runningJobsTick(BenchHome home) throws Exception {
        for (int i = 0; i < 16; i++) {
            checked(home.run("job", "submit", "--gpus", "0", "--no-tick", "-n", "busy-" + i, "--", "sleep", "600"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Timed timed = checked(home.run("job", "ls", "--json", "--active"));
            List<JsonNode> busy = named(JSON.readTree(timed.out()), "busy-");
            if (busy.stream().filter(job -> job.get("state").asText().equals("running")).count() == 16) {
                break;
            }
            Thread.sleep(500);
        }
        List<Double> walls = statusTicks(List.of(home), runs).get(home.name());
        for (JsonNode job : jobs(home, "busy-")) {
            home.run("job", "cancel", job.get("id").asText());
        }
        idle(home);
        return median(walls);
    }

    // ---- plumbing ----------------------------------------------------------------------------------

    private BenchHome home(String name, List<String> servers) throws IOException, InterruptedException {
        String config = lab == null ? "" : lab.sshConfig();
        String known = lab == null ? "" : lab.knownHosts();
        if (lab == null && soloKey == null) {
            soloKey = OpenSshHost.clientHome(work.resolve("solo-client")).resolveSibling("id_ed25519");
        }
        Path key = lab == null ? soloKey : lab.key();
        return BenchHome.create(name, work.resolve("homes"), key, config, known, servers, project, build);
    }

    private static List<String> nodes(int from, int to) {
        List<String> names = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            names.add("node" + i);
        }
        return names;
    }

    /** A running {@code nvidb queue daemon} of one home; closing it stops it (SIGTERM, then bounded). */
    private final class Daemon implements AutoCloseable {
        private final Process process;

        Daemon(Process process) {
            this.process = process;
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits (bounded) until no submit ticker lingers: the daemon's socket, which it serves, is gone. */
    private void awaitNoTicker(BenchHome home) throws Exception {
        Path socket = home.database().resolveSibling("queue.db.daemon");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Files.exists(socket)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("a submit ticker of " + home.name() + " still serves " + socket + " after 30 s");
            }
            Thread.sleep(100);
        }
    }

    private Daemon daemon(BenchHome home) throws Exception {
        Path socket = home.database().resolveSibling("queue.db.daemon");
        double started = System.currentTimeMillis() / 1000.0;
        Daemon daemon = new Daemon(home.start(work.resolve(home.name() + "-daemon.log"), "queue", "daemon"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(socket)) {
            if (System.nanoTime() > deadline || !daemon.process.isAlive()) {
                daemon.close();
                throw new IOException("the daemon of " + home.name() + " did not start: "
                        + Files.readString(work.resolve(home.name() + "-daemon.log")));
            }
            Thread.sleep(100);
        }
        while (true) {   // its first pass has ended
            Timed status = home.run("queue", "status", "--json", "--no-tick");
            JsonNode last = status.ok() ? JSON.readTree(status.out()).path("last_tick_at") : null;
            if (last != null && last.isNumber() && last.asDouble() >= started) {
                return daemon;
            }
            if (System.nanoTime() > deadline || !daemon.process.isAlive()) {
                daemon.close();
                throw new IOException("the daemon of " + home.name() + " made no pass: "
                        + Files.readString(work.resolve(home.name() + "-daemon.log")));
            }
            Thread.sleep(100);
        }
    }

    private Timed checked(Timed timed) throws IOException {
        if (!timed.ok()) {
            throw new IOException("a benchmark command failed (exit " + timed.exit() + "): " + timed.err().strip());
        }
        return timed;
    }

    private Timed java(String main, String... args) throws IOException, InterruptedException {
        return javaWith(List.of(), main, args);
    }

    private Timed javaWithLauncherFlags(String main, String... args) throws IOException, InterruptedException {
        return javaWith(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), main, args);
    }

    private Timed javaWith(List<String> flags, String main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        long start = System.nanoTime();
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int exit = process.waitFor();
        return new Timed((System.nanoTime() - start) / 1e6, exit, out, exit == 0 ? "" : out);
    }

    private static String capture(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        process.waitFor();
        return out;
    }

    private static String load() throws IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }

    private static String mib(long kib) {
        return String.format(Locale.ROOT, "%.0f MiB", kib / 1024.0);
    }
}
