package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.SecretNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A credential given with {@code --env} never shows: not in any table, JSON document, event,
 * alert or {@code alerts.log}, not in the command line of any process on the node (the job's
 * own or its wrapper's); it is stored only in owner-only files, and {@code job show --reveal}
 * shows it to the owner. Real processes on this machine's queue, with a real daemon pass
 * delivering the alert of a failing job.
 */
class SecretsTest {

    private static final String TOKEN = "tok-7f3a9c41e2-never-shown";

    @TempDir
    Path home;

    @Test
    void namesThatLookLikeCredentialsAreMaskedAndOthersAreNot() {
        for (String name : List.of("HF_TOKEN", "GITHUB_TOKEN", "WANDB_API_KEY", "OPENAI_APIKEY", "AWS_SECRET_ACCESS_KEY",
                "AWS_ACCESS_KEY_ID", "DB_PASSWORD", "MYSQL_PWD_PASSWD", "SSH_PRIVATE_KEY", "GOOGLE_CREDENTIALS",
                "hf_token", "PROXY_AUTH", "SESSION_COOKIE", "SIGNING_KEY", "GITLAB_PAT", "SENTRY_DSN", "GPG_PASSPHRASE")) {
            assertTrue(SecretNames.looksSecret(name), name);
        }
        for (String name : List.of("CUDA_LAUNCH_BLOCKING", "WANDB_MODE", "OMP_NUM_THREADS", "PYTHONPATH", "KEYBOARD",
                "HF_HOME", "SEED")) {
            assertFalse(SecretNames.looksSecret(name), name);
        }
    }

    @Test
    void aTokenNeverAppearsInAnyOutputOrProcessListAndRevealShowsIt() throws Exception {
        Map<String, String> env = CliRun.localQueue(home);
        Path nvidbHome = home.resolve(".nvidb");
        Files.writeString(nvidbHome.resolve("queue.yml"), "queue:\n  local_node_name: here\n  notify:\n    log: true\n");
        List<String> printed = new ArrayList<>();
        CliRun running = CliRun.run(env, "job", "submit", "--gpus", "0", "--name", "uses-token", "--env", "HF_TOKEN=" + TOKEN,
                "--env", "SEED=17", "--json", "--", "sleep 60; echo $HF_TOKEN > /dev/null");
        assertEquals(0, running.exitCode(), running.stderr());
        printed.add(running.stdout() + running.stderr());
        CliRun failing = CliRun.run(env, "job", "submit", "--gpus", "0", "--name", "fails", "--env", "HF_TOKEN=" + TOKEN,
                "--wait", "--", "exit 3");
        printed.add(failing.stdout() + failing.stderr());
        long id = Long.parseLong(new com.fasterxml.jackson.databind.ObjectMapper().readTree(running.stdout())
                .path("job").path("id").asText());
        awaitRunning(env, id);

        for (String[] command : List.of(
                new String[] {"job", "ls"}, new String[] {"job", "ls", "--json"},
                new String[] {"job", "show", Long.toString(id)}, new String[] {"job", "show", Long.toString(id), "--json"},
                new String[] {"job", "show", "2", "--logs", "5"}, new String[] {"queue", "status"},
                new String[] {"queue", "status", "--json", "--procs"}, new String[] {"queue", "nodes", "--procs", "--json"},
                new String[] {"queue", "events", "--json"}, new String[] {"queue", "alerts", "--json"},
                new String[] {"queue", "daemon", "--once", "--json"})) {
            CliRun run = CliRun.run(env, command);
            printed.add(String.join(" ", command) + "\n" + run.stdout() + run.stderr());
        }
        for (String output : printed) {
            assertFalse(output.contains(TOKEN), "the token was printed:\n" + output);
        }
        String shown = CliRun.run(env, "job", "show", Long.toString(id)).stdout();
        assertTrue(shown.contains("HF_TOKEN=******") && shown.contains("SEED=17"), shown);

        Path alerts = nvidbHome.resolve("alerts.log");
        assertTrue(Files.exists(alerts), "the failing job's alert was delivered");
        assertFalse(Files.readString(alerts).contains(TOKEN), Files.readString(alerts));
        assertFalse(commandLines().contains(TOKEN), "a process on the node carries the token in its command line");

        for (Path file : ownedFiles(nvidbHome)) {
            if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(TOKEN)) {
                String mode = java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
                assertTrue(mode.endsWith("------"), file + " holds the token and is " + mode);
            }
        }

        assertTrue(CliRun.run(env, "job", "show", Long.toString(id), "--reveal").stdout().contains("HF_TOKEN=" + TOKEN));
        assertTrue(CliRun.run(env, "job", "show", Long.toString(id), "--reveal", "--json").stdout().contains(TOKEN));
        CliRun.run(env, "job", "cancel", Long.toString(id));
    }

    private static void awaitRunning(Map<String, String> env, long id) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!CliRun.run(env, "job", "show", Long.toString(id), "--json").stdout().contains("\"state\" : \"running\"")) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("job " + id + " did not start");
            }
            Thread.sleep(100); // a poll with a deadline
        }
    }

    /** Every process's command line on this machine (the local node). */
    private static String commandLines() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(path -> path.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    all.append(new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8)).append('\n');
                } catch (IOException gone) {
                    // the process ended while we listed
                }
            }
        }
        return all.toString();
    }

    private static List<Path> ownedFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
