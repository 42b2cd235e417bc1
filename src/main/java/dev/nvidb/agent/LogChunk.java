package dev.nvidb.agent;

import java.util.Objects;

/**
 * What a node answered to one {@link LogRead}: the bytes and where they lie in the file.
 *
 * @param id         the job id
 * @param status     see {@link Status}
 * @param bytes      the bytes read (empty when there are none)
 * @param offset     the file offset of the first byte
 * @param nextOffset the offset just after the last byte: where the next read starts
 * @param reason     why there are no bytes (missing file, bad entry, read error), or null
 * @param cut        true when a last-lines read could not hold the lines asked for whole within
 *                   {@link LogRead#LIMIT} bytes (a longer line, or fewer lines than asked): the
 *                   bytes are the end of the file, and what came before them is not shown
 */
public record LogChunk(long id, Status status, byte[] bytes, long offset, long nextOffset, String reason,
                       boolean cut) {

    public LogChunk(long id, Status status, byte[] bytes, long offset, long nextOffset, String reason) {
        this(id, status, bytes, offset, nextOffset, reason, false);
    }

    /** The result of a log read. */
    public enum Status {
        /** The file was read (possibly nothing new). */
        OK,
        /** The job has no such log file (yet). */
        MISSING,
        /** The node could not read it (bad entry, permission); {@code reason} says why. */
        ERROR
    }

    public LogChunk {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(bytes, "bytes");
    }
}
