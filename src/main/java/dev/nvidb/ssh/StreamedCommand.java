package dev.nvidb.ssh;

import dev.nvidb.error.InterruptedByUser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;

/**
 * A command running on a host with the caller's streams connected to it live, in both
 * directions: what the caller's input yields goes to the command as it comes (end of input
 * becomes end-of-file there), and what the command writes reaches the caller's output and
 * error streams as it arrives. Optionally on a pseudo-terminal (then the host merges the
 * command's stdout and stderr, as a terminal does). Closing it closes the channel, which ends
 * the command on the host. Made by {@link SshPool#stream}.
 */
public final class StreamedCommand implements AutoCloseable {

    /** A pseudo-terminal for the command: its type ({@code TERM}) and size in characters. */
    public record Pty(String type, int columns, int rows) {
    }

    /**
     * How the command ended.
     *
     * @param exitStatus     its exit status, or null
     * @param exitSignal     the signal that ended it ({@code TERM}, {@code KILL}, …), or null
     * @param connectionLost true when the channel closed with neither (the connection dropped)
     */
    public record Ending(Integer exitStatus, String exitSignal, boolean connectionLost) {
    }

    private final ChannelExec channel;
    private final String label;

    StreamedCommand(ChannelExec channel, String label, InputStream input) {
        this.channel = channel;
        this.label = label;
        if (input != null) {
            Thread pump = new Thread(() -> pump(input, channel.getInvertedIn()), "ssh-stdin-" + label);
            pump.setDaemon(true);
            pump.start();
        } else {
            closeQuietly(channel.getInvertedIn());
        }
    }

    /** The host label used in messages ({@code user@host:port} or the alias). */
    public String label() {
        return label;
    }

    /**
     * Waits for the command to end, however long it takes. An interrupt closes the channel
     * (ending the command there) and throws {@link InterruptedByUser}.
     */
    public Ending waitForEnd() {
        while (true) {
            Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), 250);
            if (events.contains(ClientChannelEvent.CLOSED)) {
                Integer status = channel.getExitStatus();
                String signal = channel.getExitSignal();
                return new Ending(status, signal, status == null && signal == null);
            }
            if (Thread.currentThread().isInterrupted()) {
                close();
                throw new InterruptedByUser("interrupted; the command on " + label + " was ended");
            }
        }
    }

    /** Tells the host the terminal's new size (only on a pseudo-terminal; otherwise nothing). */
    public void resize(int columns, int rows) {
        if (!channel.isUsePty() || !channel.isOpen()) {
            return;
        }
        try {
            channel.sendWindowChange(columns, rows);
        } catch (IOException e) {
            // the channel is closing; nothing to resize
        }
    }

    /** The exit status once the command has ended with one. */
    public Optional<Integer> exitStatus() {
        return Optional.ofNullable(channel.getExitStatus());
    }

    /** Closes the channel at once; the host ends the command. The connection stays open for others. */
    @Override
    public void close() {
        channel.close(true);
    }

    private static void pump(InputStream from, OutputStream to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            int read;
            while ((read = from.read(buffer)) >= 0) {
                if (read > 0) {
                    to.write(buffer, 0, read);
                    to.flush();
                }
            }
        } catch (IOException e) {
            // the channel closed (the command ended) or our input failed: stop copying
        } finally {
            closeQuietly(to);
        }
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Passes every write on and flushes it, so output reaches the caller as it arrives. */
    static final class Flushing extends OutputStream {
        private final OutputStream target;

        Flushing(OutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            target.flush();
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            target.write(data, offset, length);
            target.flush();
        }

        @Override
        public void flush() throws IOException {
            target.flush();
        }

        @Override
        public void close() throws IOException {
            target.flush();   // never close the caller's stdout or stderr
        }
    }
}
