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
 * jobs, submitted as {@value #ARRAYS} arrays of {@value #CELLS} (a sweep, as users submit them;
 * even arrays CPU-only, odd ones with 1 GiB of VRAM per cell). Each job appends one line per
 * start ({@code job attempt token node}) to its own file under {@link FaultNodes#STARTS}, sleeps
 * 1 to 3 s and exits 0; cell 7 of every array exits 3 (a failure with its code), cell 0 of every
 * third array sleeps 20 s (something to cancel while it runs). Each submit carries an
 * {@code --op-id}, so one the campaign kills (or that times out) is retried as a client should:
 * the same request again until it answers, never a second array.
 */
final class FaultWorkload {

    static final int ARRAYS = 20;
    static final int CELLS = 10;
    static final int JOBS = ARRAYS * CELLS;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a command run to its end returned (commands the campaign killed are not kept). */
    record Finished(String command, int exitCode, String stderr, double seconds) {
    }

    private final Map<String, String> env;
    private final Path logs;
    final Map<Integer, Long> ids = new ConcurrentHashMap<>();
    /** A cancel command's run: started before it could act, ended after whatever it did. */
    record Window(Instant started, Instant ended) {
    }

    /** Per job id, the runs of the cancel commands that named it. */
    final Map<Long, List<Window>> cancelRequests = new ConcurrentHashMap<>();
    final List<Finished> finished = new CopyOnWriteArrayList<>();
    final AtomicInteger submitsKilled = new AtomicInteger();
    final AtomicInteger submitRetries = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    final AtomicInteger requeues = new AtomicInteger();

    FaultWorkload(Map<String, String> env, Path logs) {
        this.env = env;
        this.logs = logs;
    }

    /** Job {@code job}'s name: the name array {@code job / CELLS} gives its cell {@code job % CELLS}. */
    static String name(int job) {
        return String.format(java.util.Locale.ROOT, "fc-%02d[%d]", job / CELLS, job % CELLS);
    }

    /** An array's shell line ({@code {}} is the cell's index): record this start, sleep, exit with the cell's code. */
    static String command(int array) {
        String longCell = array % 3 == 0 ? "0) s=20 ;; " : "";
        return "printf '%s %s %s %s\\n' \"$NVIDB_JOB_ID\" \"$NVIDB_ATTEMPT\" \"$(cat \"$NVIDB_JOB_DIR/token\")\""
                + " \"$NVIDB_NODE\" >>" + FaultNodes.STARTS + "/\"$NVIDB_JOB_NAME\"; case {} in " + longCell
                + "*) s=$((1 + {} % 3)) ;; esac; sleep $s; [ {} -ne 7 ] || exit 3";
    }

    static int exitCode(int job) {
        return job % CELLS == 7 ? 3 : 0;
    }

    private static List<String> submitArgs(int array, String runId) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--json", "--op-id", "fc-" + runId + "-" + array,
                "-n", String.format(java.util.Locale.ROOT, "fc-%02d", array), "--array", "0-" + (CELLS - 1)));
        args.addAll(array % 2 == 0 ? List.of("--gpus", "0") : List.of("--vram", "1G"));
        args.add("--");
        args.add(command(array));
        return args;
    }

    /**
     * Submits arrays {@code first, first + step, …}: before some submits (by {@code random}) a
     * copy of the request is started and SIGKILLed after 50 to 1200 ms; then the request runs to
     * its answer, retried while it fails or runs past the launcher's bound.
     */
    void submitAll(int first, int step, Random random, String runId) throws Exception {
        for (int array = first; array < ARRAYS; array += step) {
            List<String> args = submitArgs(array, runId);
            if (random.nextInt(100) < 30) {
                killAfter(args, Duration.ofMillis(50 + random.nextInt(1150)));
                submitsKilled.incrementAndGet();
            }
            for (int attempt = 1; ; attempt++) {
                Launcher.Run run;
                try {
                    run = run(args);
                } catch (IOException tooSlow) {
                    run = new Launcher.Run(-1, "", tooSlow.getMessage());
                }
                if (run.exitCode() == 0) {
                    for (com.fasterxml.jackson.databind.JsonNode cell : JSON.readTree(run.stdout()).get("jobs")) {
                        ids.put(array * CELLS + cell.get("array_index").asInt(), cell.get("id").asLong());
                    }
                    System.out.println("fault campaign: " + ids.size() + " jobs submitted");
                    break;
                }
                if (attempt == 20) {
                    throw new IllegalStateException("submit of array " + array + " failed 20 times: " + run.stderr());
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
            Thread thread = new Thread(() -> {
                Instant started = Instant.now();
                try {
                    run(args);
                    if (cancel) {
                        Window window = new Window(started, Instant.now());
                        targets.forEach(id -> cancelRequests.computeIfAbsent(Long.parseLong(id),
                                k -> new CopyOnWriteArrayList<>()).add(window));
                    }
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
        String command = String.join(" ", args.subList(0, Math.min(2, args.size())));
        finished.add(new Finished(command, run.exitCode(), run.stderr(), seconds));
        if (seconds > 10) {
            System.out.printf(java.util.Locale.ROOT, "fault campaign: slow command (%.1f s, exit %d): %s: %s%n", seconds,
                    run.exitCode(), String.join(" ", args), run.stderr().strip());
        }
        return run;
    }

    /** Starts {@code bin/nvidb args} without waiting; its output goes to a file in the logs folder. */
    Process start(String... args) throws IOException {
        return Launcher.start(env, Files.createTempFile(logs, args[0] + "-" + args[1] + "-", ".log"), args);
    }

    /** Starts {@code bin/nvidb args} and SIGKILLs it after {@code delay}, wherever it is by then. */
    void killAfter(List<String> args, Duration delay) throws IOException, InterruptedException {
        Process process = start(args.toArray(String[]::new));
        if (!process.waitFor(delay.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
        }
        process.waitFor();
    }
}
