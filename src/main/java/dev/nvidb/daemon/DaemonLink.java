package dev.nvidb.daemon;

import dev.nvidb.engine.WarmPath;
import dev.nvidb.model.TickReport;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A command's side of the warm path: asks the queue's daemon, when one serves this database,
 * for a pass instead of ticking itself. Every failure (no daemon, a stale socket, a daemon that
 * does not answer in time, one that answers nonsense) is "no daemon": the caller ticks itself,
 * exactly as without a daemon.
 */
public final class DaemonLink implements WarmPath {

    private final Path database;

    public DaemonLink(Path database) {
        this.database = database.toAbsolutePath();
    }

    @Override
    public boolean present() {
        return Files.exists(DaemonWire.socket(database));
    }

    @Override
    public boolean wake() {
        return ask(DaemonWire.WAKE, Duration.ofSeconds(2)).filter(lines -> lines.equals(List.of(DaemonWire.OK)))
                .isPresent();
    }

    @Override
    public Optional<TickReport> sync(boolean current, Duration timeout) {
        return ask(current ? DaemonWire.FRESH : DaemonWire.SYNC, timeout)
                .filter(lines -> !lines.isEmpty() && lines.get(0).startsWith(DaemonWire.DONE + " "))
                .flatMap(lines -> {
                    try {
                        return Optional.of(DaemonWire.decode(lines));
                    } catch (IllegalArgumentException e) {
                        return Optional.empty();
                    }
                });
    }

    /** Sends one request; the answer's lines up to the end marker (or the single line), empty on any failure. */
    private Optional<List<String>> ask(String request, Duration timeout) {
        if (!present()) {
            return Optional.empty();
        }
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(DaemonWire.socket(database)));
            Thread watchdog = watchdog(channel, timeout);
            try {
                ByteBuffer out = ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.US_ASCII));
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                return Optional.of(readAnswer(channel));
            } finally {
                watchdog.interrupt();
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Closes {@code channel} after {@code timeout}, which ends a read blocked on it. */
    private static Thread watchdog(SocketChannel channel, Duration timeout) {
        Thread thread = new Thread(() -> {
            try {
                Thread.sleep(timeout.toMillis());
                channel.close();
            } catch (InterruptedException | IOException e) {
                // answered in time, or already closed
            }
        }, "daemon-link-timeout");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static List<String> readAnswer(SocketChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        StringBuilder text = new StringBuilder();
        List<String> lines = new ArrayList<>();
        while (channel.read(buffer) >= 0) {
            buffer.flip();
            text.append(StandardCharsets.UTF_8.decode(buffer));
            buffer.clear();
            int newline;
            while ((newline = text.indexOf("\n")) >= 0) {
                String line = text.substring(0, newline);
                text.delete(0, newline + 1);
                if (line.equals(DaemonWire.END)) {
                    return lines;
                }
                lines.add(line);
                if (lines.size() == 1 && !line.startsWith(DaemonWire.DONE + " ")) {
                    return lines;
                }
            }
        }
        throw new IOException("the daemon closed the connection mid-answer");
    }
}
