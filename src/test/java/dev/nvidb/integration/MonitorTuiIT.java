package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
        Process sleeper = new ProcessBuilder("sleep", "600").start();
        Process tail = new ProcessBuilder("tail", "-f", "/dev/null").start();
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
            try (TmuxScreen terminal = TmuxScreen.nvidb("mon-it", 120, 40, home, "--remote --interval 0.5")) {
                drive(terminal, config, sleeper, tail);
            }
        } finally {
            sleeper.destroyForcibly();
            tail.destroyForcibly();
        }
    }

    private static void drive(TmuxScreen terminal, Path config, Process sleeper, Process tail) throws Exception {
        String screen = terminal.await("gpu-a  up", "gpu-b  up", "NVIDIA H100 80GB HBM3", "NVIDIA RTX A6000");
        assertTrue(screen.contains("2/2 nodes up"), screen);

        terminal.keys("j", "Enter");
        screen = terminal.await("processes · gpu-a GPU 0 · 2", Long.toString(sleeper.pid()),
                Long.toString(tail.pid()), "sleep 600");

        terminal.keys("/");
        terminal.type("sleep");
        screen = terminal.await("processes · gpu-a GPU 0 · 1 of 2", "filter: sleep");
        assertTrue(screen.contains(Long.toString(sleeper.pid())), screen);
        assertFalse(screen.lines().anyMatch(line -> line.contains(Long.toString(tail.pid()))),
                "the filter hides the other process:\n" + screen);

        terminal.keys("Enter", "T");
        terminal.await("press T again or Enter within");
        assertTrue(sleeper.isAlive(), "one press only arms the signal");
        terminal.keys("T");
        terminal.await("sent SIGTERM to " + sleeper.pid());
        assertTrue(sleeper.waitFor(30, TimeUnit.SECONDS), "the signalled process ended");
        assertTrue(tail.isAlive(), "the other process is untouched");

        terminal.keys("h", "v");
        terminal.await("nvidb unified");
        String saved = Files.readString(config);
        assertTrue(saved.contains("  mode: unified   # v switches"), saved);
        assertTrue(saved.startsWith("# the lab\n"), saved);

        terminal.keys("q");
        screen = terminal.await("EXIT=");
        assertTrue(screen.contains("EXIT=0"), screen);
        assertFalse(screen.contains("q quit"), "the alternate screen is gone:\n" + screen);
        String modes = terminal.pane("#{alternate_on} #{mouse_any_flag}");
        assertTrue(modes.startsWith("0"), "the terminal left the alternate screen: " + modes);
    }
}
