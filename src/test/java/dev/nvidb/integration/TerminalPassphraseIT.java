package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.ClientKey;
import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Files;
import java.nio.file.Path;
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
            try (TmuxScreen terminal = TmuxScreen.nvidb("nvidb-pass", 120, 30, home, "--once --remote")) {
                terminal.await("Enter passphrase for key");
                terminal.type(ClientKey.PASSPHRASE).keys("Enter");
                String screen = terminal.await("EXIT=");
                assertTrue(screen.contains("EXIT=0"), screen);
                assertTrue(screen.contains("NVIDIA RTX 6000 Ada"), screen);
                assertTrue(!screen.contains(ClientKey.PASSPHRASE), "the passphrase is not echoed: " + screen);
            }
        }
    }
}
