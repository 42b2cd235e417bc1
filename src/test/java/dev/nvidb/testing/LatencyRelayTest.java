package dev.nvidb.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The harness's network: bytes arrive whole, in order and no sooner than the round trip; stalls hold them; drops cut. */
class LatencyRelayTest {

    private ServerSocket echo;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket socket = echo.accept();
                    Thread pump = new Thread(() -> {
                        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException ignored) {
                            // the client went away
                        }
                    }, "echo");
                    pump.setDaemon(true);
                    pump.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stopEcho() throws IOException {
        echo.close();
    }

    private InetSocketAddress echoAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort());
    }

    @Test
    void aMegabyteGoesThereAndBackWholeAndInOrderNoSoonerThanTheRoundTrip() throws Exception {
        byte[] sent = new byte[1 << 20];
        new Random(5).nextBytes(sent);
        try (LatencyRelay relay = LatencyRelay.start(echoAddress(), Duration.ofMillis(200));
             Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            long start = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    client.getOutputStream().write(sent);
                    client.shutdownOutput();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            client.setSoTimeout(30_000);
            InputStream in = client.getInputStream();
            int first = in.read();
            long firstByte = System.nanoTime() - start;
            byte[] rest = in.readAllBytes();
            writer.join();
            byte[] received = new byte[1 + rest.length];
            received[0] = (byte) first;
            System.arraycopy(rest, 0, received, 1, rest.length);
            assertArrayEquals(sent, received);
            assertTrue(firstByte >= Duration.ofMillis(400).toNanos(),
                    "the first byte came back after the connect's round trip and its own, not before: "
                            + firstByte / 1_000_000 + " ms");
        }
    }

    @Test
    void eachSendThatFollowsAnAnswerIsATurnAndPipelinedSendsAreNot() throws Exception {
        try (LatencyRelay relay = LatencyRelay.start(echoAddress(), Duration.ofMillis(20));
             Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            client.setSoTimeout(30_000);
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            out.write('a');
            out.write('b');           // pipelined: no answer came in between
            assertEquals('a', in.read());
            assertEquals('b', in.read());
            out.write('c');           // after an answer: a turn
            assertEquals('c', in.read());
            out.write('d');           // and another
            assertEquals('d', in.read());
            assertEquals(2, relay.turns());
            assertEquals(1, relay.connectionsAccepted());
            relay.resetCounts();
            assertEquals(0, relay.turns());
        }
    }

    @Test
    void aStallHoldsEveryByteUntilReleasedAndADropClosesBothSides() throws Exception {
        try (LatencyRelay relay = LatencyRelay.start(echoAddress(), Duration.ZERO);
             Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            client.setSoTimeout(300);
            relay.stall();
            client.getOutputStream().write('a');
            try {
                int got = client.getInputStream().read();
                throw new AssertionError("a stalled relay let a byte through: " + got);
            } catch (SocketTimeoutException held) {
                // held, as asked
            }
            relay.release();
            client.setSoTimeout(30_000);
            assertEquals('a', client.getInputStream().read());
            assertEquals(1, relay.connections());

            relay.dropAll();
            assertEquals(-1, readOrEnd(client), "the client sees its connection end");
            assertEquals(0, relay.connections());
        }
    }

    @Test
    void aRefusingRelayClosesNewConnectionsAtOnce() throws Exception {
        try (LatencyRelay relay = LatencyRelay.start(echoAddress(), Duration.ZERO)) {
            relay.refuse(true);
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
                client.setSoTimeout(30_000);
                assertEquals(-1, readOrEnd(client));
            }
            relay.refuse(false);
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
                client.setSoTimeout(30_000);
                client.getOutputStream().write('b');
                assertEquals('b', client.getInputStream().read());
            }
        }
    }

    /** The next byte, or -1 at the end; a reset counts as the end. */
    private static int readOrEnd(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read();
        } catch (java.net.SocketException reset) {
            return -1;
        }
    }
}
