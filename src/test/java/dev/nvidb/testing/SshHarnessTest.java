package dev.nvidb.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.ssh.ExecResult;
import dev.nvidb.ssh.RemoteProcess;
import dev.nvidb.ssh.SshPool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness itself: what commands see on a host, stop/start, killing on channel close, the client home. */
class SshHarnessTest {

    @TempDir
    Path temp;
    private SshHarness harness;
    private SshPool pool;

    @BeforeEach
    void start() {
        harness = new SshHarness();
    }

    @AfterEach
    void stop() {
        if (pool != null) {
            pool.close();
        }
        harness.close();
    }

    private ExecResult exec(String host, String command) {
        if (pool == null) {
            pool = new SshPool(harness.settings());
        }
        return pool.exec(harness.target(host), command);
    }

    @Test
    void hostsHaveTheirOwnAddressHomeAndFakeNvmlEnvironment() {
        TestHost a = harness.addHost("gpu-a");
        TestHost b = harness.addHost("gpu-b");

        assertEquals("127.0.0.2", a.address());
        assertEquals("127.0.0.3", b.address());
        assertNotEquals(a.home(), b.home());
        String fake = harness.fakeNvmlDir().toString();
        assertEquals(fake + "/lib\n" + b.gpuStateFile() + "\n",
                exec("gpu-b", "echo $LD_LIBRARY_PATH; echo $NVIDB_FAKE_NVML_STATE").stdoutText());
        assertTrue(exec("gpu-a", "echo $PATH").stdoutText().startsWith(fake + "/bin:"));
    }

    @Test
    void hostWithoutPythonCannotFindPython3ButHasTheBasics() {
        harness.addHost("plain");
        harness.addHost("bare", HostOptions.defaults().withoutPython().libDir(harness.fakeNvmlDir().resolve("lib-old")));

        assertEquals(0, exec("plain", "command -v python3").exitStatus());
        assertEquals("missing\n", exec("bare", "command -v python3 || echo missing").stdoutText());
        assertEquals("hi\n", exec("bare", "echo hi | cat").stdoutText());
        assertEquals(harness.fakeNvmlDir().resolve("lib-old") + "\n", exec("bare", "echo $LD_LIBRARY_PATH").stdoutText());
    }

    @Test
    void stoppedHostRefusesConnectionsAndComesBackOnTheSamePort() {
        TestHost host = harness.addHost("gpu-a");
        int port = host.port();
        host.stop();

        SshException error = assertThrows(SshException.class, () -> exec("gpu-a", "true"));
        assertTrue(error.getMessage().contains("connection refused"), error.getMessage());
        host.start();
        assertEquals(port, host.port());
        assertEquals(0, exec("gpu-a", "true").exitStatus());
    }

    @Test
    void closingTheChannelKillsTheCommandButNotWhatItDetachedWithSetsid() throws Exception {
        TestHost host = harness.addHost("gpu-a");
        pool = new SshPool(harness.settings());
        long detached;
        long attached;
        try (RemoteProcess process = pool.start(harness.target("gpu-a"),
                "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $!; echo $$; exec sleep 300")) {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.stdout(), StandardCharsets.UTF_8));
            detached = Long.parseLong(out.readLine());
            attached = Long.parseLong(out.readLine());
        }
        awaitGone(attached);
        assertTrue(ProcessHandle.of(detached).map(ProcessHandle::isAlive).orElse(false), "setsid child survives");
        ProcessHandle.of(detached).ifPresent(ProcessHandle::destroyForcibly);
        assertEquals(1, host.sessionsOpened());
    }

    @Test
    void clientHomeHoldsConfigKnownHostsAndKeyWithPrivateModes() throws Exception {
        harness.addHost("gpu-a");
        Path home = temp.resolve("home");
        harness.writeClientHome(home);

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".ssh"))));
        for (String file : new String[] {"config", "known_hosts", "id_ed25519"}) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".ssh/" + file))));
        }
        assertTrue(Files.readString(home.resolve(".ssh/config")).contains("IdentityFile " + home.resolve(".ssh/id_ed25519")));
        // The real OpenSSH client accepts the layout as it is.
        Process ssh = new ProcessBuilder("ssh", "-F", home.resolve(".ssh/config").toString(),
                "-o", "UserKnownHostsFile=" + home.resolve(".ssh/known_hosts"), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=yes", "gpu-a", "echo", "from-openssh").redirectErrorStream(true).start();
        String output = new String(ssh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, ssh.waitFor(), output);
        assertTrue(output.contains("from-openssh"), output);
    }

    private static void awaitGone(long pid) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            assertTrue(System.nanoTime() < deadline, "process " + pid + " still runs after its channel closed");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
