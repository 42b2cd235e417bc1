package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.ClientKey;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A passphrase-protected key asked for on a real terminal: {@code bin/nvidb} runs inside tmux,
 * the test reads the screen, types the passphrase, and sees the node's GPUs. Without a
 * terminal the same command fails with one clear line (covered in the SSH tests).
 */
class TerminalPassphraseIT {

    @TempDir
    Path work;

    @Test
    void asksForThePassphraseOnTheTerminalAndConnects() throws Exception {
        requireTmux();
        try (SshHarness harness = new SshHarness()) {
            TestHost host = harness.addHost("gpu-locked");
            FakeGpuState.create().gpu(0, "NVIDIA RTX 6000 Ada", 49140).uuid(0, "GPU-locked").used(0, 10)
                    .writeTo(host.gpuStateFile());
            Path home = work.resolve("home");
            harness.writeClientHome(home);
            Path key = harness.clientKey(ClientKey.ED25519_PROTECTED);
            Files.createDirectories(home.resolve(".nvidb"));
            Files.writeString(home.resolve(".nvidb/config.yml"), "basic:\n  include_local: false\nservers:\n"
                    + "  - hostname: gpu-locked\n    auth: key\n    identityfile: " + key + "\n");
            String session = "nvidb-pass-" + ProcessHandle.current().pid();
            Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
            String command = "env HOME=" + home + " NVIDB_NO_BUILD=1 NVIDB_BUILD_DIR="
                    + System.getProperty("nvidb.build.dir", project.resolve("target").toString()) + " "
                    + project.resolve("bin/nvidb") + " --once --remote; echo EXIT=$?; sleep 60";
            tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "30", command);
            try {
                awaitScreen(session, "Enter passphrase for key");
                tmux("send-keys", "-t", session, ClientKey.PASSPHRASE, "Enter");
                String screen = awaitScreen(session, "EXIT=");
                assertTrue(screen.contains("EXIT=0"), screen);
                assertTrue(screen.contains("NVIDIA RTX 6000 Ada"), screen);
                assertTrue(!screen.contains(ClientKey.PASSPHRASE), "the passphrase is not echoed: " + screen);
            } finally {
                tmux("kill-session", "-t", session);
            }
        }
    }

    private static void requireTmux() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/tmux"));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI prerequisite missing: tmux (apt-get install tmux)");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(present, "tmux is not installed");
    }

    private static String awaitScreen(String session, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = tmux("capture-pane", "-p", "-t", session);
            if (screen.contains(text)) {
                return screen;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError("'" + text + "' did not appear on the terminal:\n" + screen);
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
