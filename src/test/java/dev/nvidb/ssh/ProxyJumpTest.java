package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.model.HostKeyPolicy;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reaching nodes through jump hosts, each hop verified against known_hosts under its own name. */
class ProxyJumpTest {

    @TempDir
    Path temp;
    private SshHarness harness;
    private TestHost loginA;
    private TestHost loginB;
    private TestHost gpu;

    @BeforeEach
    void start() {
        harness = new SshHarness();
        loginA = harness.addHost("login-a");
        loginB = harness.addHost("login-b");
        gpu = harness.addHost("gpu-a");
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void commandRunsOnTheNodeThroughOneJumpHost() {
        try (SshPool pool = new SshPool(harness.settings())) {
            ExecResult result = pool.exec(harness.target("gpu-a").withProxyJump("login-a"), "echo $HOME");

            assertEquals(gpu.home() + "\n", result.stdoutText());
            assertEquals(0, pool.exec(harness.target("gpu-a").withProxyJump("login-a"), "true").exitStatus());
        }
        assertEquals(1, loginA.sessionsOpened());
        assertEquals(1, gpu.sessionsOpened());
        assertEquals(0, loginB.sessionsOpened());
    }

    @Test
    void commandRunsThroughATwoHopChainWrittenAsUserAtAddressPort() {
        String secondHop = loginB.username() + "@" + loginB.address() + ":" + loginB.port();
        SshTarget target = harness.target("gpu-a").withProxyJump("login-a," + secondHop);
        try (SshPool pool = new SshPool(harness.settings())) {
            ResolvedTarget resolved = pool.resolve(target);
            assertEquals(2, resolved.jumps().size());
            assertEquals(loginB.address(), resolved.jumps().get(1).hostname());

            assertEquals(gpu.home() + "\n", pool.exec(target, "echo $HOME").stdoutText());
        }
        assertEquals(1, loginA.sessionsOpened());
        assertEquals(1, loginB.sessionsOpened());
        assertEquals(1, gpu.sessionsOpened());
    }

    @Test
    void proxyJumpFromSshConfigIsFollowed() throws Exception {
        Files.writeString(harness.sshConfig(), "Host gpu-a\n  ProxyJump login-a\n\n" + Files.readString(harness.sshConfig()));
        try (SshPool pool = new SshPool(harness.settings())) {
            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
        }
        assertEquals(1, loginA.sessionsOpened());
    }

    @Test
    void unknownJumpHostIsRefusedByName() throws Exception {
        Path knownHosts = temp.resolve("known_hosts");
        String gpuOnly = Files.readAllLines(harness.knownHosts()).stream()
                .filter(line -> line.startsWith("[" + gpu.address() + "]")).findFirst().orElseThrow();
        Files.writeString(knownHosts, gpuOnly + "\n");
        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(knownHosts))) {
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(harness.target("gpu-a").withProxyJump("login-a"), "true"));

            assertEquals("host key for jump host login-a (" + loginA.address() + ":" + loginA.port()
                    + ") on the way to gpu-a is not known", error.getMessage());
        }
        assertEquals(0, gpu.sessionsOpened());
    }

    @Test
    void changedKeyBehindAJumpHostIsRefused() {
        gpu.rotateHostKeys();
        try (SshPool pool = new SshPool(harness.settings().withHostKeyPolicy(HostKeyPolicy.ACCEPT_NEW))) {
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(harness.target("gpu-a").withProxyJump("login-a"), "true"));

            assertTrue(error.getMessage().startsWith("host key for gpu-a (" + gpu.address() + ":" + gpu.port()
                    + ") has CHANGED"), error.getMessage());
        }
    }

    @Test
    void nodeThatIsDownBehindTheJumpHostFailsClearly() {
        gpu.stop();
        try (SshPool pool = new SshPool(harness.settings())) {
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(harness.target("gpu-a").withProxyJump("login-a"), "true"));

            assertTrue(error.getMessage().startsWith("gpu-a (" + gpu.address() + ":" + gpu.port() + "): "),
                    error.getMessage());
        }
    }
}
