package dev.nvidb.integration;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The campaign's workload, run through real {@code bin/nvidb} processes: {@value #JOBS} short
 * jobs, half CPU-only and half with 1 GiB of VRAM, each appending one line per start
 * ({@code job attempt token node}) to its own file under {@link FaultNodes#STARTS}; every tenth
 * exits 3 (a failure with its code), every 25th sleeps 20 s (something to cancel while it runs).
 * Each submit carries an {@code --op-id}, so one the campaign kills mid-way is retried as a
 * client should: the same request again until it answers, never a second job.
 */
final class FaultWorkload {

    static final int JOBS = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a command run to its end returned (commands the campaign killed are not kept). */
    record Finished(String command, int exitCode, String stderr, double seconds) {
    }

    private final Map<String, String> env;
    private final Path logs;
    final Map<Integer, Long> ids = new ConcurrentHashMap<>();
    /** Per job id, when the campaign first asked to cancel it (before the command started). */
    final Map<Long, List<Instant>> cancelRequests = new ConcurrentHashMap<>();
    final List<Finished> finished = new CopyOnWriteArrayList<>();
    final AtomicInteger submitsKilled = new AtomicInteger();
    final AtomicInteger submitRetries = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    final AtomicInteger requeues = new AtomicInteger();

    FaultWorkload(Map<String, String> env, Path logs) {
        this.env = env;
        this.logs = logs;
    }

    static String name(int job) {
        return String.format("fc-%03d", job);
    }

    /** The job's shell line: record this start, sleep, exit with the job's code. */
    static String command(int job) {
        String sleep = job % 25 == 0 ? "20" : String.format(java.util.Locale.ROOT, "%.1f", 0.3 + (job % 5) * 0.4);
        return "printf '%s %s %s %s\\n' \"$NVIDB_JOB_ID\" \"$NVIDB_ATTEMPT\" \"$(cat \"$NVIDB_JOB_DIR/token\")\""
                + " \"$NVIDB_NODE\" >>" + FaultNodes.STARTS + "/\"$NVIDB_JOB_NAME\"; sleep " + sleep + "; exit " + exitCode(job);
    }

    static int exitCode(int job) {
        return job % 10 == 7 ? 3 : 0;
    }

    private static List<String> submitArgs(int job, String runId) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--json", "--op-id", "fc-" + runId + "-" + job,
                "-n", name(job)));
        args.addAll(job % 2 == 0 ? List.of("--gpus", "0") : List.of("--vram", "1G"));
        args.add("--");
        args.add(command(job));
        return args;
    }

    /**
     * Submits jobs {@code first, first + step, …}: before some submits (by {@code random}) a
     * copy of the request is started and SIGKILLed after 50 to 1200 ms; then the request runs to
     * its answer, retried while it fails.
     */
    void submitAll(int first, int step, Random random, String runId) throws Exception {
        for (int job = first; job < JOBS; job += step) {
            List<String> args = submitArgs(job, runId);
            if (random.nextInt(100) < 20) {
                killAfter(args, Duration.ofMillis(50 + random.nextInt(1150)));
                submitsKilled.incrementAndGet();
            }
            for (int attempt = 1; ; attempt++) {
                Launcher.Run run = run(args);
                if (run.exitCode() == 0) {
                    ids.put(job, JSON.readTree(run.stdout()).at("/job/id").asLong());
                    if (ids.size() % 25 == 0) {
                        System.out.println("fault campaign: " + ids.size() + " jobs submitted");
                    }
                    break;
                }
                if (attempt == 20) {
                    throw new IllegalStateException("submit of " + name(job) + " failed 20 times: " + run.stderr());
                }
                submitRetries.incrementAndGet();
            }
        }
    }

    /**
     * A burst of concurrent cancels and requeues on one or two jobs already submitted: two
     * processes at once, each a cancel or a requeue, drawn from {@code random}.
     */
    void cancelRequeueBurst(Random random) throws InterruptedException {
        List<Long> known = new ArrayList<>(ids.values());
        if (known.isEmpty()) {
            return;
        }
        java.util.Collections.sort(known);
        List<String> targets = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
            targets.add(String.valueOf(known.get(random.nextInt(known.size()))));
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            boolean cancel = random.nextBoolean();
            List<String> args = new ArrayList<>(List.of("job", cancel ? "cancel" : "requeue"));
            args.addAll(targets);
            (cancel ? cancels : requeues).incrementAndGet();
            if (cancel) {
                Instant now = Instant.now();
                targets.forEach(id -> cancelRequests.computeIfAbsent(Long.parseLong(id), k -> new CopyOnWriteArrayList<>()).add(now));
            }
            Thread thread = new Thread(() -> {
                try {
                    run(args);
                } catch (IOException e) {
                    finished.add(new Finished(String.join(" ", args), -1, e.getMessage(), 0));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Runs {@code bin/nvidb args} to its end and keeps what it returned. */
    Launcher.Run run(List<String> args) throws IOException, InterruptedException {
        long began = System.nanoTime();
        Launcher.Run run = Launcher.run(env, args.toArray(String[]::new));
        double seconds = (System.nanoTime() - began) / 1e9;
        String command = String.join(" ", args.subList(0, Math.min(3, args.size())));
        finished.add(new Finished(command, run.exitCode(), run.stderr(), seconds));
        if (seconds > 10) {
            System.out.printf(java.util.Locale.ROOT, "fault campaign: slow command (%.1f s, exit %d): %s: %s%n", seconds,
                    run.exitCode(), String.join(" ", args), run.stderr().strip());
        }
        return run;
    }

    /** Starts {@code bin/nvidb args} and SIGKILLs it after {@code delay}, wherever it is by then. */
    void killAfter(List<String> args, Duration delay) throws IOException, InterruptedException {
        Path output = Files.createTempFile(logs, "killed-", ".log");
        Process process = Launcher.start(env, output, args.toArray(String[]::new));
        if (!process.waitFor(delay.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
        }
        process.waitFor();
    }
}
