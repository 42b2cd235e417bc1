package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
            try (TmuxScreen terminal = TmuxScreen.nvidb("nvidb-queue-tui", 120, 40, home, "queue")) {
                terminal.await("gpu-a  up", "gpu-b  up", "gpu-hung  DOWN");

                Launcher.Run submit = Launcher.run(env, "job", "submit", "--vram", "10G", "--name", "from-shell", "--",
                        "sleep 300");
                assertEquals(0, submit.exitCode(), submit.stderr());
                String id = submit.stdout().strip();
                String row = String.format("%5s running", id);
                terminal.await(row, "from-shell");

                terminal.keys("c");
                terminal.await("press c again within 5 s to cancel job " + id);
                terminal.keys("c");
                terminal.await("cancelled job " + id, String.format("%5s cancelled", id));
                assertEquals("cancelled", Launcher.run(env, "job", "ls", "--json", "--no-tick").stdout()
                        .replaceAll("(?s).*\"state\"\\s*:\\s*\"([a-z]+)\".*", "$1"));

                b.stop();
                terminal.await("gpu-b  DOWN");
                terminal.keys("?");
                terminal.await("cancel the selected job (press twice within 5 s)");
                terminal.keys("Escape");
                terminal.await("gpu-b  DOWN", "from-shell");

                terminal.keys("q");
                String screen = terminal.await("EXIT=");
                assertTrue(screen.contains("EXIT=0"), screen);
                assertTrue(!screen.contains("nvidb queue ·"), "the queue screen is gone:\n" + screen);
            }
        }
    }
}
