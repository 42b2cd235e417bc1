package dev.nvidb.daemon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the daemon answers a {@link DaemonRequest}, as frames on the connection: a kind byte, an
 * int length and that many bytes. First {@link Accepted} (the daemon will run the request once
 * the client says go) or {@link Refused} (run it yourself), then the command's output as it comes
 * ({@link Out}, {@link Err}: the bytes a local run would have written) and its {@link Exit} code.
 * The client relays output unchanged, so a handed command prints exactly what it prints here.
 */
public sealed interface DaemonReply {

    byte ACCEPTED = 'a';
    byte REFUSED = 'n';
    byte OUT = 'o';
    byte ERR = 'e';
    byte EXIT = 'x';
    /** The client's one byte after {@link Accepted}: from here the request is the daemon's to run. */
    byte GO = 'g';
    /** Largest frame read: output comes in pieces far smaller. */
    int MAX_FRAME = 1 << 24;

    /**
     * The daemon will run the request once the client confirms ({@link #GO}); an
     * {@code interruptible} one (a wait) stops when the client hangs up, so Ctrl-C ends the
     * client at once instead of waiting for the answer.
     */
    record Accepted(boolean interruptible) implements DaemonReply {
    }

    /** Nothing ran: another build, a request it cannot read, or a command it does not run; the client runs it. */
    record Refused(String reason) implements DaemonReply {
    }

    /** Bytes of the command's stdout. */
    record Out(byte[] bytes) implements DaemonReply {
    }

    /** Bytes of the command's stderr. */
    record Err(byte[] bytes) implements DaemonReply {
    }

    /** The command ended with this exit code. */
    record Exit(int code) implements DaemonReply {
    }

    /** The frame's kind byte. */
    default byte kind() {
        if (this instanceof Accepted) {
            return ACCEPTED;
        }
        if (this instanceof Refused) {
            return REFUSED;
        }
        if (this instanceof Out) {
            return OUT;
        }
        if (this instanceof Err) {
            return ERR;
        }
        return EXIT;
    }

    /** The frame's payload. */
    default byte[] payload() {
        if (this instanceof Accepted accepted) {
            return new byte[] {(byte) (accepted.interruptible() ? 1 : 0)};
        }
        if (this instanceof Refused refused) {
            return refused.reason().getBytes(StandardCharsets.UTF_8);
        }
        if (this instanceof Out out) {
            return out.bytes();
        }
        if (this instanceof Err err) {
            return err.bytes();
        }
        if (this instanceof Exit exit) {
            return ByteBuffer.allocate(4).putInt(exit.code()).array();
        }
        return new byte[0];
    }

    /** The reply a frame of {@code kind} with {@code payload} carries; null for a frame of no known kind. */
    static DaemonReply of(byte kind, byte[] payload) {
        switch (kind) {
            case ACCEPTED:
                return new Accepted(payload.length > 0 && payload[0] == 1);
            case REFUSED:
                return new Refused(new String(payload, StandardCharsets.UTF_8));
            case OUT:
                return new Out(payload);
            case ERR:
                return new Err(payload);
            case EXIT:
                return payload.length == 4 ? new Exit(ByteBuffer.wrap(payload).getInt()) : null;
            default:
                return null;
        }
    }
}
