package dev.nvidb.cli;

import dev.nvidb.remote.TerminalControl;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The process's standard streams as bytes, and its terminal's controls, for a command that
 * passes bytes through unchanged (a command forwarded to a queue host).
 *
 * @param in       stdin
 * @param out      stdout
 * @param err      stderr
 * @param terminal the terminal's size and raw mode (used only when stdin and stdout are one)
 */
public record Streams(InputStream in, OutputStream out, OutputStream err, TerminalControl terminal)
        implements dev.nvidb.app.Forwarding.Bytes {

    /** The real process streams and terminal. */
    static Streams system() {
        return new Streams(System.in, System.out, System.err, TerminalControl.system());
    }

    /** No stdin; stdout and stderr decoded as UTF-8 into the writers; no terminal controls. */
    static Streams over(PrintWriter out, PrintWriter err) {
        return new Streams(new ByteArrayInputStream(new byte[0]), new Decoding(out), new Decoding(err),
                TerminalControl.NONE);
    }

    /** Bytes written to it reach a writer as UTF-8 text (a sequence split across writes is kept whole). */
    private static final class Decoding extends OutputStream {
        private final PrintWriter writer;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        private ByteBuffer pending = ByteBuffer.allocate(0);

        Decoding(PrintWriter writer) {
            this.writer = writer;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] data, int offset, int length) {
            ByteBuffer input = ByteBuffer.allocate(pending.remaining() + length);
            input.put(pending).put(data, offset, length).flip();
            CharBuffer chars = CharBuffer.allocate(input.remaining() + 1);
            decoder.decode(input, chars, false);
            chars.flip();
            writer.append(chars);
            pending = input.slice();
        }

        @Override
        public void flush() {
            writer.flush();
        }
    }
}
