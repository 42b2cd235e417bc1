package dev.nvidb.ssh;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;

/**
 * A long-lived command on a node (the agent in {@code --serve} mode): write requests to
 * {@link #stdin()}, read replies from {@link #stdout()}. Standard error is kept as a bounded
 * tail so an unread stderr can never stall the channel. It shares the node's pooled connection.
 */
public final class RemoteProcess implements AutoCloseable {

    private final ChannelExec channel;
    private final TailBuffer stderr;

    RemoteProcess(ChannelExec channel, TailBuffer stderr) {
        this.channel = channel;
        this.stderr = stderr;
    }

    /** The command's standard input; closing it sends end-of-file. */
    public OutputStream stdin() {
        return channel.getInvertedIn();
    }

    /** The command's standard output; it ends when the command exits or the connection drops. */
    public InputStream stdout() {
        return channel.getInvertedOut();
    }

    /** The last 64 KiB the command wrote to standard error. */
    public String stderrTail() {
        return stderr.text();
    }

    /** The exit status once the command has exited with one. */
    public Optional<Integer> exitStatus() {
        return Optional.ofNullable(channel.getExitStatus());
    }

    public boolean isOpen() {
        return channel.isOpen() && !channel.isClosing();
    }

    /** Waits up to {@code limit} for the command to end; true if it did. */
    public boolean waitFor(Duration limit) {
        Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), limit.toMillis());
        return events.contains(ClientChannelEvent.CLOSED);
    }

    /** Closes the channel; the server ends the command. The node's connection stays open for others. */
    @Override
    public void close() {
        channel.close(false);
    }

    /** Keeps the last {@code limit} bytes written to it. */
    public static final class TailBuffer extends OutputStream {
        private static final int LIMIT = 64 * 1024;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] data, int offset, int length) {
            bytes.write(data, offset, length);
            if (bytes.size() > 2 * LIMIT) {
                byte[] all = bytes.toByteArray();
                bytes.reset();
                bytes.write(all, all.length - LIMIT, LIMIT);
            }
        }

        public synchronized String text() {
            byte[] all = bytes.toByteArray();
            int from = Math.max(0, all.length - LIMIT);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        }
    }
}
