package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A submit's exit code says whether the job exists (issue 7, item 6): once the job is stored
 * the command prints its id and exits 0, whatever the tick after it does (a write that fails as
 * on a full disk, a poisoned queue, Ctrl-C); before that, nothing is stored and it exits non-zero.
 */
class SubmitExitCodeTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void localQueue() throws Exception {
        env = Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
        Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(home.resolve(".nvidb/queue.yml"), "queue:\n  local_node_name: here\n  tick_min_interval: 0\n");
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /**
     * The submits launched their jobs on this machine, detached: wait (with a deadline) until no
     * wrapper or job still works in the queue's directories, so the temporary home can be removed.
     */
    @AfterEach
    void awaitDetachedJobs() throws Exception {
        awaitDetachedJobsUnder(home);
    }

    /** As {@link #awaitDetachedJobs}, for the jobs another test launched under {@code home}. */
    static void awaitDetachedJobsUnder(Path home) throws Exception {
        String root = home.toRealPath().toString();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && workingUnder(root)) {
            Thread.sleep(50); // a poll with a deadline
        }
    }

    static boolean workingUnder(String root) {
        try (var processes = ProcessHandle.allProcesses()) {
            return processes.anyMatch(process -> {
                try {
                    return Files.readSymbolicLink(Path.of("/proc/" + process.pid() + "/cwd")).toString().startsWith(root);
                } catch (Exception e) {
                    return false; // gone, or not ours to read
                }
            });
        }
    }

    private void sql(String statement) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + home.resolve(".nvidb/queue.db"));
             Statement sql = connection.createStatement()) {
            sql.executeUpdate(statement);
        }
    }

    private long jobs() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + home.resolve(".nvidb/queue.db"));
             Statement sql = connection.createStatement();
             var rows = sql.executeQuery("SELECT count(*) FROM jobs")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void aTickThatCannotWriteAfterTheInsertIsAWarningAndTheSubmitAnswersWithTheId() throws Exception {
        // The tick's first write of a placement fails as on a full disk; the insert before it does not.
        sql("CREATE TRIGGER full BEFORE INSERT ON events WHEN NEW.kind = 'placed'"
                + " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
        CliRun run = CliRun.run(env, "job", "submit", "--gpus", "0", "--", "true");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("2", run.stdout().strip(), "the id is the answer");
        assertTrue(run.stderr().contains("nvidb: job 2 is queued, but placing it failed: "), run.stderr());
        assertTrue(run.stderr().contains("disk is full"), run.stderr());
        assertEquals(2, jobs());

        CliRun json = CliRun.run(env, "job", "submit", "--json", "--gpus", "0", "--", "true");
        assertEquals(0, json.exitCode(), json.stderr());
        assertTrue(json.stdout().contains("\"id\" : 3"), json.stdout());
    }

    @Test
    void aPoisonedQueueNoLongerFailsTheNextSubmit() throws Exception {
        sql("UPDATE jobs SET env = '{\"NVIDB_FOO\":\"1\"}' WHERE id = 1");
        CliRun run = CliRun.run(env, "job", "submit", "--gpus", "0", "--wait", "--", "true");
        assertEquals(0, run.exitCode(), run.stderr());
        CliRun poison = CliRun.run(env, "job", "show", "1", "--json", "--no-tick");
        assertTrue(poison.stdout().contains("\"state\" : \"failed\""), poison.stdout());
        assertTrue(poison.stdout().contains("cannot launch: environment variable NVIDB_FOO"), poison.stdout());
    }

    @Test
    void anInterruptBeforeTheInsertStoresNothing() throws Exception {
        Thread.currentThread().interrupt();
        CliRun before = CliRun.run(env, "job", "submit", "--gpus", "0", "--", "true");
        Thread.interrupted();
        assertEquals(130, before.exitCode(), before.stderr());
        assertEquals(1, jobs(), "nothing was stored");

    }

    /**
     * Ctrl-C at random moments of a real {@code job submit} process: every run either stored
     * nothing (and exited non-zero) or printed the id of the job it stored (and exited 0). The
     * moment of the signal is random on purpose, spread over the whole run.
     */
    @Test
    void ctrlCAtAnyMomentEitherStoresNothingOrPrintsTheStoredId() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        Random random = new Random(7);
        long full = timed(start());
        List<String> problems = new ArrayList<>();
        int stored = 0;
        int trials = 8;
        for (int trial = 0; trial < trials; trial++) {
            long before = jobs();
            Process process = start();
            try {
                Assumptions.assumeFalse(sigintIgnored(process.pid()), "SIGINT is ignored here");
                long delay = (long) (full * (0.1 + 1.0 * random.nextDouble()));
                if (!process.waitFor(delay, TimeUnit.MILLISECONDS)) {
                    new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
                }
                assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the submit ends after Ctrl-C");
                String out = new String(process.getInputStream().readAllBytes()).strip();
                String err = new String(process.getErrorStream().readAllBytes()).strip();
                long after = jobs();
                int code = process.exitValue();
                if (after == before + 1) {
                    stored++;
                    if (!out.equals(String.valueOf(after)) || code != 0) {
                        problems.add("trial " + trial + " (" + delay + " ms): stored job " + after + " but printed '"
                                + out + "' and exited " + code + "; stderr: " + err);
                    }
                } else if (after == before) {
                    if (code == 0 || !out.isEmpty()) {
                        problems.add("trial " + trial + ": stored nothing but exited " + code + " printing '" + out + "'");
                    }
                } else {
                    problems.add("trial " + trial + ": " + (after - before) + " jobs appeared");
                }
            } finally {
                process.destroyForcibly();
            }
        }
        assertEquals(List.of(), problems, stored + " of " + trials + " interrupted submits stored their job");
    }

    /**
     * A real full disk, as far as the process can tell: {@code ulimit -f} (RLIMIT_FSIZE) at
     * several sizes, so some submits cannot even store their job and others store it but cannot
     * write their tick. Either nothing was stored (non-zero exit, nothing on stdout) or the id was
     * printed and the exit is 0.
     */
    @Test
    void onAFullDiskEitherNothingIsStoredOrTheIdIsPrintedWithExitZero() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
        Path library = sqliteLibrary();
        Assumptions.assumeTrue(library != null, "no SQLite native library for this machine in the jar");
        List<String> problems = new ArrayList<>();
        int stored = 0;
        for (int limit : new int[] {8, 64, 104, 256}) {
            long before = jobs();
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "ulimit -f " + limit + " && exec \"$@\"", "sh",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC", "-Dorg.sqlite.lib.path=" + library.getParent(),
                    "-Dorg.sqlite.lib.name=" + library.getFileName(), "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "job", "submit", "--gpus", "0", "--", "true");
            builder.environment().putAll(env);
            builder.environment().put(SubmitTicker.MODE, "inline");
            Process process = builder.start();
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the submit ends");
            String out = new String(process.getInputStream().readAllBytes()).strip();
            String err = new String(process.getErrorStream().readAllBytes()).strip();
            long after = jobs();
            int code = process.exitValue();
            if (after == before + 1) {
                stored++;
                if (!out.equals(String.valueOf(after)) || code != 0) {
                    problems.add("ulimit -f " + limit + ": stored job " + after + " but printed '" + out + "' and exited "
                            + code + "; stderr: " + err);
                }
            } else if (after != before || code == 0 || !out.isEmpty()) {
                problems.add("ulimit -f " + limit + ": " + (after - before) + " jobs stored, exit " + code + ", printed '"
                        + out + "'; stderr: " + err);
            }
        }
        assertEquals(List.of(), problems, stored + " of 4 submits stored their job");
    }

    /** SQLite's native library copied out of its jar (the JVM must not write it under the file-size limit). */
    private Path sqliteLibrary() throws Exception {
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        if (arch == null || !System.getProperty("os.name").equals("Linux")) {
            return null;
        }
        try (var in = org.sqlite.SQLiteJDBCLoader.class.getResourceAsStream(
                "/org/sqlite/native/Linux/" + arch + "/libsqlitejdbc.so")) {
            if (in == null) {
                return null;
            }
            Path library = Files.createDirectories(home.resolve("lib")).resolve("libsqlitejdbc.so");
            Files.copy(in, library);
            return library;
        }
    }

    private Process start() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "job", "submit", "--gpus", "0", "--", "true");
        builder.environment().putAll(env);
        builder.environment().put(SubmitTicker.MODE, "inline");
        return builder.start();
    }

    /** How long one uninterrupted submit takes here (ms). */
    private static long timed(Process process) throws Exception {
        long start = System.nanoTime();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), new String(process.getErrorStream().readAllBytes()));
        return Math.max(200, (System.nanoTime() - start) / 1_000_000);
    }

    private static boolean sigintIgnored(long pid) throws java.io.IOException {
        String ignored = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
                .filter(line -> line.startsWith("SigIgn:")).findFirst().orElse("SigIgn: 0").substring(7).strip();
        return (Long.parseLong(ignored, 16) & 2L) != 0;
    }
}
