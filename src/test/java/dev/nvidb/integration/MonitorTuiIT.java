package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive monitor end to end, as a user meets it: {@code bin/nvidb --remote} in a real
 * terminal (tmux, 120×40) against two SSH servers with fake GPUs. The test reads the screen,
 * filters the process list, ends a foreign process with a confirmed SIGTERM, switches the layout
 * (saved to config.yml with its comments) and quits with q, and the terminal is given back.
 */
class MonitorTuiIT {

    @TempDir
    Path work;

    @Test
    void watchesTwoServersFiltersProcessesEndsOneWithADoublePressAndQuitsCleanly() throws Exception {
        requireTmux();
        Process sleeper = new ProcessBuilder("sleep", "600").start();
        Process tail = new ProcessBuilder("tail", "-f", "/dev/null").start();
        String session = "mon-it-" + ProcessHandle.current().pid();
        try (SshHarness harness = new SshHarness()) {
            TestHost first = harness.addHost("gpu-a");
            TestHost second = harness.addHost("gpu-b");
            FakeGpuState.create().driver("550.54.14")
                    .gpu(0, "NVIDIA H100 80GB HBM3", 81559).used(0, 31000).util(0, 88)
                    .process(0, ProcessKind.COMPUTE, sleeper.pid(), 30000)
                    .process(0, ProcessKind.COMPUTE, tail.pid(), 900)
                    .gpu(1, "NVIDIA H100 80GB HBM3", 81559).used(1, 0).util(1, 0)
                    .writeTo(first.gpuStateFile());
            FakeGpuState.create().gpu(0, "NVIDIA RTX A6000", 49140).used(0, 2048).util(0, 3)
                    .writeTo(second.gpuStateFile());
            Path home = work.resolve("home");
            harness.writeClientHome(home);
            Path config = home.resolve(".nvidb/config.yml");
            Files.createDirectories(config.getParent());
            Files.writeString(config, """
                    # the lab
                    basic:
                      include_local: false   # servers only
                    servers:
                      - hostname: gpu-a
                      - hostname: gpu-b
                    view:
                      mode: per-node   # v switches
                    """);
            Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
            String command = "env HOME=" + home + " NVIDB_NO_BUILD=1 NVIDB_BUILD_DIR="
                    + System.getProperty("nvidb.build.dir", project.resolve("target").toString()) + " "
                    + project.resolve("bin/nvidb") + " --remote --interval 0.5; echo EXIT=$?; sleep 120";
            tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command);

            String screen = awaitScreen(session, "gpu-a  up", "gpu-b  up", "NVIDIA H100 80GB HBM3", "NVIDIA RTX A6000");
            assertTrue(screen.contains("2/2 nodes up"), screen);

            keys(session, "j", "Enter");
            screen = awaitScreen(session, "processes · gpu-a GPU 0 · 2", Long.toString(sleeper.pid()),
                    Long.toString(tail.pid()), "sleep 600");

            keys(session, "/");
            literal(session, "sleep");
            screen = awaitScreen(session, "processes · gpu-a GPU 0 · 1 of 2", "filter: sleep");
            assertTrue(screen.contains(Long.toString(sleeper.pid())), screen);
            assertFalse(screen.lines().anyMatch(line -> line.contains(Long.toString(tail.pid()))),
                    "the filter hides the other process:\n" + screen);

            keys(session, "Enter", "T");
            awaitScreen(session, "press T again or Enter within");
            assertTrue(sleeper.isAlive(), "one press only arms the signal");
            keys(session, "T");
            awaitScreen(session, "sent SIGTERM to " + sleeper.pid());
            assertTrue(sleeper.waitFor(30, TimeUnit.SECONDS), "the signalled process ended");
            assertTrue(tail.isAlive(), "the other process is untouched");

            keys(session, "h", "v");
            awaitScreen(session, "nvidb unified");
            String saved = Files.readString(config);
            assertTrue(saved.contains("  mode: unified   # v switches"), saved);
            assertTrue(saved.startsWith("# the lab\n"), saved);

            keys(session, "q");
            screen = awaitScreen(session, "EXIT=");
            assertTrue(screen.contains("EXIT=0"), screen);
            assertFalse(screen.contains("q quit"), "the alternate screen is gone:\n" + screen);
            String modes = tmux("display-message", "-p", "-t", session, "#{alternate_on} #{mouse_any_flag}");
            assertTrue(modes.strip().startsWith("0"), "the terminal left the alternate screen: " + modes);
        } finally {
            tmux("kill-session", "-t", session);
            sleeper.destroyForcibly();
            tail.destroyForcibly();
        }
    }

    private static void requireTmux() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/tmux"));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI prerequisite missing: tmux (apt-get install tmux)");
        }
        Assumptions.assumeTrue(present, "tmux is not installed");
    }

    private static void keys(String session, String... keys) throws IOException, InterruptedException {
        for (String key : keys) {
            tmux("send-keys", "-t", session, key);
        }
    }

    private static void literal(String session, String text) throws IOException, InterruptedException {
        tmux("send-keys", "-t", session, "-l", text);
    }

    /** Polls the screen until every text is on it (60 s at most). */
    private static String awaitScreen(String session, String... texts) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = tmux("capture-pane", "-p", "-t", session);
            String current = screen;
            if (List.of(texts).stream().allMatch(current::contains)) {
                return screen;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError(List.of(texts) + " did not all appear on the terminal:\n" + screen);
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }
}
