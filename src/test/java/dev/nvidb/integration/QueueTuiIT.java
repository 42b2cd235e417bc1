package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue screen on a real terminal: {@code bin/nvidb queue} runs inside tmux against
 * harness nodes (one of which never answers), a job submitted from another shell appears and
 * runs, a double {@code c} cancels it, a node stopped meanwhile is shown DOWN while the keys
 * still answer, and {@code q} restores the terminal and exits 0.
 */
class QueueTuiIT {

    @TempDir
    Path work;

    @Test
    void watchAndDriveTheQueueFromItsScreen() throws Exception {
        Prerequisites.requireTmux();
        try (SshHarness harness = new SshHarness()) {
            TestHost a = harness.addHost("gpu-a");
            TestHost b = harness.addHost("gpu-b");
            harness.hungHost("gpu-hung");
            FakeGpuState.create().gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 0).writeTo(a.gpuStateFile());
            FakeGpuState.create().gpu(0, "NVIDIA L40S", 46068).used(0, 0).writeTo(b.gpuStateFile());
            Path home = work.resolve("home");
            harness.writeClientHome(home);
            Files.createDirectories(home.resolve(".nvidb"));
            Files.writeString(home.resolve(".nvidb/config.yml"),
                    "basic:\n  include_local: false\n  connect_timeout: 2\n  command_timeout: 10\n");
            Files.writeString(home.resolve(".nvidb/queue.yml"),
                    "servers:\n  - hostname: gpu-a\n  - hostname: gpu-b\n  - hostname: gpu-hung\n");
            Map<String, String> env = Launcher.localEnvironment(home);
            String session = "nvidb-queue-tui-" + ProcessHandle.current().pid();
            Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
            String command = "env HOME=" + home + " NVIDB_NO_BUILD=1 NVIDB_BUILD_DIR="
                    + System.getProperty("nvidb.build.dir", project.resolve("target").toString()) + " "
                    + project.resolve("bin/nvidb") + " queue; echo EXIT=$?; sleep 120";
            tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command);
            try {
                awaitScreen(session, "gpu-a  up", "gpu-b  up", "gpu-hung  DOWN");

                Launcher.Run submit = Launcher.run(env, "job", "submit", "--vram", "10G", "--name", "from-shell", "--",
                        "sleep 300");
                assertEquals(0, submit.exitCode(), submit.stderr());
                String id = submit.stdout().strip();
                String row = String.format("%5s running", id);
                awaitScreen(session, row, "from-shell");

                keys(session, "c");
                awaitScreen(session, "press c again within 5 s to cancel job " + id);
                keys(session, "c");
                awaitScreen(session, "cancelled job " + id, String.format("%5s cancelled", id));
                assertEquals("cancelled", Launcher.run(env, "job", "ls", "--json", "--no-tick").stdout()
                        .replaceAll("(?s).*\"state\"\\s*:\\s*\"([a-z]+)\".*", "$1"));

                b.stop();
                awaitScreen(session, "gpu-b  DOWN");
                keys(session, "?");
                awaitScreen(session, "cancel the selected job (press twice within 5 s)");
                keys(session, "Escape");
                awaitScreen(session, "gpu-b  DOWN", "from-shell");

                keys(session, "q");
                String screen = awaitScreen(session, "EXIT=");
                assertTrue(screen.contains("EXIT=0"), screen);
                assertTrue(!screen.contains("nvidb queue ·"), "the queue screen is gone:\n" + screen);
            } finally {
                tmux("kill-session", "-t", session);
            }
        }
    }

    private static void keys(String session, String... keys) throws IOException, InterruptedException {
        List<String> args = new java.util.ArrayList<>(List.of("send-keys", "-t", session));
        args.addAll(List.of(keys));
        tmux(args.toArray(String[]::new));
    }

    /** The screen once it shows every one of {@code texts}; fails after 60 s with the screen it saw. */
    private static String awaitScreen(String session, String... texts) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = tmux("capture-pane", "-p", "-t", session);
            String seen = screen;
            if (java.util.Arrays.stream(texts).allMatch(seen::contains)) {
                return screen;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError(String.join(", ", texts) + " did not all appear on the terminal:\n" + screen);
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }
}
