package dev.nvidb.queue;

/**
 * Bytes of a job's output and the offset to read from next.
 *
 * @param bytes      the output read (possibly ending inside a UTF-8 character)
 * @param nextOffset the byte offset just after them
 * @param cut        true when "the last lines" could show only the end of lines longer than one
 *                   read's bound (1 MiB), or fewer lines than asked
 */
public record LogChunk(byte[] bytes, long nextOffset, boolean cut) {

    public LogChunk(byte[] bytes, long nextOffset) {
        this(bytes, nextOffset, false);
    }
}
