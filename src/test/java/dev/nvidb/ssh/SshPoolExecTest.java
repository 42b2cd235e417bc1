package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Running commands through the pool: output, exit status, input, timeouts and long-lived processes. */
class SshPoolExecTest {

    private static SshHarness harness;
    private static TestHost host;
    private static SshPool pool;

    @BeforeAll
    static void startHost() {
        harness = new SshHarness();
        host = harness.addHost("gpu-a");
        pool = new SshPool(harness.settings());
    }

    @AfterAll
    static void stopHost() {
        pool.close();
        harness.close();
    }

    @Test
    void returnsStdoutStderrAndExitStatus() {
        ExecResult result = pool.exec(harness.target("gpu-a"), "echo out; echo err >&2; exit 3");

        assertEquals(3, result.exitStatus());
        assertEquals("out\n", result.stdoutText());
        assertEquals("err\n", result.stderrText());
    }

    @Test
    void commandRunsInTheHostsHomeWithItsEnvironment() {
        ExecResult result = pool.exec(harness.target("gpu-a"), "pwd; echo $HOME; echo $NVIDB_FAKE_NVML_STATE");

        assertEquals(host.home() + "\n" + host.home() + "\n" + host.gpuStateFile() + "\n", result.stdoutText());
    }

    @Test
    void largeStdinRoundTripsThroughCat() {
        byte[] payload = new byte[200 * 1024];
        new Random(42).nextBytes(payload);

        ExecResult result = pool.exec(harness.target("gpu-a"), "cat", payload, Duration.ofSeconds(20));

        assertEquals(0, result.exitStatus());
        assertArrayEquals(payload, result.stdout());
    }

    @Test
    void noStdinMeansEndOfFileAtOnce() {
        ExecResult result = pool.exec(harness.target("gpu-a"), "wc -c");

        assertEquals("0", result.stdoutText().strip());
    }

    @Test
    void commandThatRunsTooLongIsStoppedWithAClearError() {
        SshException error = assertThrows(SshException.class,
                () -> pool.exec(harness.target("gpu-a"), "sleep 30", null, Duration.ofMillis(300)));

        assertTrue(error.getMessage().startsWith("gpu-a (" + host.address() + ":" + host.port() + "): "),
                error.getMessage());
        assertTrue(error.getMessage().contains("did not finish within 300 ms"), error.getMessage());
    }

    @Test
    void remoteProcessAnswersLineByLineAndEndsOnClose() throws Exception {
        try (RemoteProcess process = pool.start(harness.target("gpu-a"),
                "while read line; do echo \"got $line\"; done; echo bye >&2")) {
            OutputStream in = process.stdin();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.stdout(), StandardCharsets.UTF_8));

            in.write("one\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            assertEquals("got one", out.readLine());
            in.write("two\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            assertEquals("got two", out.readLine());
            in.close();

            assertNull(out.readLine());
            assertTrue(process.waitFor(Duration.ofSeconds(10)));
            assertEquals(0, process.exitStatus().orElseThrow());
            assertEquals("bye\n", process.stderrTail());
        }
    }
}
