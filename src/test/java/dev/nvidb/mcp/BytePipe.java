package dev.nvidb.mcp;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A one-way byte pipe between threads, like a process's stdin or stdout: what is written to
 * {@link #out()} is read from {@link #in()}, and closing the writing end is end of file for the
 * reader. Unlike {@code PipedInputStream} it does not care which threads write.
 */
final class BytePipe {

    private static final byte[] END = new byte[0];
    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();

    private final OutputStream out = new OutputStream() {
        private boolean closed;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            if (closed) {
                throw new IllegalStateException("pipe closed");
            }
            if (length > 0) {
                chunks.add(java.util.Arrays.copyOfRange(bytes, offset, offset + length));
            }
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                chunks.add(END);
            }
        }
    };

    private final InputStream in = new InputStream() {
        private byte[] current = new byte[0];
        private int at;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] buffer, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            while (at == current.length) {
                if (current == END) {
                    return -1;
                }
                try {
                    current = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
                at = 0;
                if (current == END) {
                    return -1;
                }
            }
            int n = Math.min(length, current.length - at);
            System.arraycopy(current, at, buffer, offset, n);
            at += n;
            return n;
        }
    };

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }
}
