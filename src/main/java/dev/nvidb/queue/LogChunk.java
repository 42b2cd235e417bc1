package dev.nvidb.queue;

/**
 * Bytes of a job's output and the offset to read from next.
 *
 * @param bytes      the output read (possibly ending inside a UTF-8 character)
 * @param nextOffset the byte offset just after them
 */
public record LogChunk(byte[] bytes, long nextOffset) {
}
