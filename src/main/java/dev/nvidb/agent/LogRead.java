package dev.nvidb.agent;

import java.util.Objects;

/**
 * Asks a node for part of a job's output ({@code stdout.log} or {@code stderr.log} in its
 * attempt directory): the bytes from {@code offset} on, or, with no offset, the last
 * {@code lines} lines before the size the file had when the node opened it. Either way at
 * most {@code maxBytes} bytes (the node caps it at {@link #LIMIT}).
 *
 * @param id       the job id (echoed in the answer)
 * @param dir      the attempt directory on the node ({@code ~} is the node's home)
 * @param stderr   true for stderr.log
 * @param offset   the byte to start at, or null for the last lines
 * @param lines    how many last lines (ignored with an offset)
 * @param maxBytes the most bytes to return
 */
public record LogRead(long id, String dir, boolean stderr, Long offset, int lines, int maxBytes) {

    /** The most bytes one read returns; the agent enforces the same bound. */
    public static final int LIMIT = 1 << 20;

    public LogRead {
        Objects.requireNonNull(dir, "dir");
        if (offset != null && offset < 0 || lines < 0 || maxBytes < 0 || maxBytes > LIMIT) {
            throw new IllegalArgumentException("a log read needs an offset and lines of 0 or more and at most "
                    + LIMIT + " bytes");
        }
    }

    /** The last {@code lines} lines, as much of them as fits in {@link #LIMIT} bytes. */
    public static LogRead lastLines(long id, String dir, boolean stderr, int lines) {
        return new LogRead(id, dir, stderr, null, lines, LIMIT);
    }

    /** At most {@code maxBytes} bytes from {@code offset} on. */
    public static LogRead from(long id, String dir, boolean stderr, long offset, int maxBytes) {
        return new LogRead(id, dir, stderr, offset, 0, Math.min(maxBytes, LIMIT));
    }

    /** The stream's name on the wire and in the attempt directory: {@code stdout} or {@code stderr}. */
    public String stream() {
        return stderr ? "stderr" : "stdout";
    }
}
