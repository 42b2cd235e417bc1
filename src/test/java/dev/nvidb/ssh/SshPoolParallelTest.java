package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.testing.HungHost;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Nodes contacted from many threads at once: one connection per node, and a bad node delays nobody else. */
class SshPoolParallelTest {

    private SshHarness harness;
    private ExecutorService threads;

    @BeforeEach
    void start() {
        harness = new SshHarness();
        threads = Executors.newFixedThreadPool(8);
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        harness.close();
    }

    @Test
    void parallelCommandsShareOneConnectionPerNode() throws Exception {
        List<TestHost> hosts = List.of(harness.addHost("gpu-a"), harness.addHost("gpu-b"), harness.addHost("gpu-c"));
        try (SshPool pool = new SshPool(harness.settings())) {
            CountDownLatch gate = new CountDownLatch(1);
            List<Future<ExecResult>> results = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (TestHost host : hosts) {
                    results.add(threads.submit(() -> {
                        gate.await();
                        return pool.exec(harness.target(host.name()), "echo $HOME");
                    }));
                }
            }
            gate.countDown();
            for (int i = 0; i < results.size(); i++) {
                TestHost host = hosts.get(i % hosts.size());
                assertEquals(host.home() + "\n", results.get(i).get(20, TimeUnit.SECONDS).stdoutText());
            }
        }
        for (TestHost host : hosts) {
            assertEquals(1, host.sessionsOpened(), host.name() + " sessions");
        }
    }

    @Test
    void hungAndStoppedNodesFailOnTheirOwnWhileHealthyNodesAnswer() throws Exception {
        TestHost gpuA = harness.addHost("gpu-a");
        TestHost gpuB = harness.addHost("gpu-b");
        HungHost hung = harness.hungHost("gpu-c");
        TestHost down = harness.addHost("gpu-d");
        down.stop();
        // A connect timeout far beyond what the healthy nodes take even on a loaded machine: the
        // hung node is still waiting when they have answered, whatever the machine's speed.
        SshSettings patient = harness.settings().withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(5),
                Duration.ofSeconds(30));
        try (SshPool pool = new SshPool(patient)) {
            long started = System.nanoTime();
            Future<ExecResult> hungResult = threads.submit(() -> pool.exec(harness.target("gpu-c"), "true"));
            awaitAccepted(hung);
            Future<ExecResult> downResult = threads.submit(() -> pool.exec(harness.target("gpu-d"), "true"));
            Future<ExecResult> resultA = threads.submit(() -> pool.exec(harness.target("gpu-a"), "hostname"));
            Future<ExecResult> resultB = threads.submit(() -> pool.exec(harness.target("gpu-b"), "hostname"));

            assertEquals(0, resultA.get(30, TimeUnit.SECONDS).exitStatus());
            assertEquals(0, resultB.get(30, TimeUnit.SECONDS).exitStatus());
            SshException refused = failure(downResult);
            assertFalse(hungResult.isDone(), "the hung node must still be waiting when the others have answered");
            System.out.printf("healthy+down answered after %d ms while the hung node waited%n",
                    (System.nanoTime() - started) / 1_000_000);
            assertEquals("gpu-d (" + down.address() + ":" + down.port() + "): connection refused while connecting",
                    refused.getMessage());
            hungResult.cancel(true);
        }
        assertEquals(1, gpuA.sessionsOpened());
        assertEquals(1, gpuB.sessionsOpened());
        // And the hung node fails on its own, after its connect timeout, saying so.
        SshSettings brief = harness.settings().withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofSeconds(30));
        try (SshPool pool = new SshPool(brief)) {
            SshException hungError = failure(threads.submit(() -> pool.exec(harness.target("gpu-c"), "true")));
            assertEquals("gpu-c (" + hung.address() + ":" + hung.port() + "): no answer within 1 s while connecting",
                    hungError.getMessage());
        }
    }

    @Test
    void stoppedNodeIsReconnectedOnceItIsBack() {
        TestHost host = harness.addHost("gpu-a");
        try (SshPool pool = new SshPool(harness.settings())) {
            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
            host.stop();
            SshException error = assertInstanceOf(SshException.class,
                    org.junit.jupiter.api.Assertions.assertThrows(SshException.class,
                            () -> pool.exec(harness.target("gpu-a"), "true")));
            assertTrue(error.getMessage().startsWith("gpu-a (" + host.address() + ":" + host.port() + "): "),
                    error.getMessage());
            host.start();

            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
            assertEquals(2, host.sessionsOpened());
        }
    }

    private static SshException failure(Future<ExecResult> result) throws Exception {
        try {
            result.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return assertInstanceOf(SshException.class, e.getCause());
        }
        throw new AssertionError("expected a failure");
    }

    /** Polls (with a deadline) until the hung node has swallowed the pool's TCP connection. */
    private static void awaitAccepted(HungHost hung) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (hung.connectionsAccepted() == 0) {
            assertTrue(System.nanoTime() < deadline, "the pool never reached the hung node");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
