package dev.nvidb.queue;

/**
 * Bytes of a job's output and the offset to read from next.
 *
 * @param bytes      the output read (possibly ending inside a UTF-8 character)
 * @param nextOffset the byte offset just after them
 * @param cut        true when "the last lines" could show only the end of lines longer than one
 *                   read's bound (1 MiB), or fewer lines than asked; or when {@link #first} or
 *                   {@link #last} left bytes out
 */
public record OutputChunk(byte[] bytes, long nextOffset, boolean cut) {

    public OutputChunk(byte[] bytes, long nextOffset) {
        this(bytes, nextOffset, false);
    }

    /**
     * At most {@code maxBytes} from the front, ending after a whole UTF-8 character (a character
     * cut by the read or by the bound is left for the next read, unless nothing else is there),
     * with {@link #nextOffset} just after them: reading on from there loses and repeats nothing.
     */
    public OutputChunk first(int maxBytes) {
        int limit = Math.min(bytes.length, maxBytes);
        int kept = wholeCharacters(java.util.Arrays.copyOf(bytes, limit));
        int end = kept == 0 ? limit : kept;
        if (end == bytes.length) {
            return this;
        }
        return new OutputChunk(java.util.Arrays.copyOf(bytes, end), nextOffset - bytes.length + end, true);
    }

    /** At most the last {@code maxBytes}, starting at a whole UTF-8 character; {@link #nextOffset} is unchanged. */
    public OutputChunk last(int maxBytes) {
        if (bytes.length <= maxBytes) {
            return this;
        }
        int start = bytes.length - maxBytes;
        for (int skipped = 0; skipped < 3 && start < bytes.length && (bytes[start] & 0xc0) == 0x80; skipped++) {
            start++;
        }
        return new OutputChunk(java.util.Arrays.copyOfRange(bytes, start, bytes.length), nextOffset, true);
    }

    /**
     * A sink of output bytes that passes on whole UTF-8 text only: the bytes of a character split
     * across two reads are held until the rest arrives ({@code job logs -f}).
     */
    public static java.util.function.Consumer<byte[]> asText(java.util.function.Consumer<String> text) {
        byte[][] carry = {new byte[0]};
        return bytes -> {
            byte[] all = new byte[carry[0].length + bytes.length];
            System.arraycopy(carry[0], 0, all, 0, carry[0].length);
            System.arraycopy(bytes, 0, all, carry[0].length, bytes.length);
            int complete = wholeCharacters(all);
            carry[0] = java.util.Arrays.copyOfRange(all, complete, all.length);
            if (complete > 0) {
                text.accept(new String(all, 0, complete, java.nio.charset.StandardCharsets.UTF_8));
            }
        };
    }

    /** How many leading bytes form whole UTF-8 characters (a cut sequence at the end is left out). */
    public static int wholeCharacters(byte[] bytes) {
        int end = bytes.length;
        for (int back = 1; back <= Math.min(3, end); back++) {
            int b = bytes[end - back] & 0xff;
            if ((b & 0xc0) == 0x80) {
                continue;
            }
            int length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
            return length > back ? end - back : end;
        }
        return end;
    }
}
