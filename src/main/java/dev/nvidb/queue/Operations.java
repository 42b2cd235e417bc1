package dev.nvidb.queue;

import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.NvidbException;
import dev.nvidb.error.UsageException;
import dev.nvidb.store.OperationStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code --op-id}: a write command run under an operation id answers a retry of the same
 * request with its first answer (stdout and exit code), and refuses the id for another request.
 * A submit also records the jobs it stored under the id in the insert's transaction, so a retry
 * after a crash or a timeout, or one running at the same time, never stores a second job.
 * Operations are kept {@value #KEEP_DAYS} days ({@code queue gc}, the daemon's retention).
 */
public final class Operations {

    /** How long an operation's answer is kept. */
    public static final int KEEP_DAYS = 7;
    private static final Pattern OP_ID = Pattern.compile("[A-Za-z0-9._:@+=/-]{1,128}");

    /** What to do with a command run under an operation id. */
    public enum Kind {
        /** New: run it, then record its answer. */
        RUN,
        /** Seen, never answered (its first run died or is still under way): run again; a submit reuses its jobs. */
        RUN_AGAIN,
        /** Answered: print {@link Begin#stdout()} and exit with {@link Begin#exitCode()}. */
        REPLAY
    }

    /** The decision, with the recorded answer for {@link Kind#REPLAY}. */
    public record Begin(Kind kind, String stdout, int exitCode) {
    }

    private final QueueEngine engine;
    private final OperationStore store;

    Operations(QueueEngine engine) {
        this.engine = engine;
        this.store = new OperationStore(engine.database());
    }

    /** A usage error unless {@code opId} is 1 to 128 letters, digits and {@code . _ : @ + = / -}. */
    public static void check(String opId) {
        if (!OP_ID.matcher(opId).matches()) {
            throw new UsageException("--op-id '" + opId + "' is not valid",
                    "an operation id is 1 to 128 letters, digits and . _ : @ + = / -, e.g. a UUID");
        }
    }

    /**
     * Looks the operation up and claims it when new, in one transaction. The same id with
     * another request is a usage error naming the id and what it was used for.
     *
     * @param digest  the canonical digest of the request
     * @param command the request as text, for that error
     */
    public Begin begin(String opId, String digest, String command) {
        check(opId);
        return engine.database().write("look up operation " + opId, conn -> {
            Optional<OperationStore.Operation> earlier = store.find(conn, opId);
            if (earlier.isEmpty()) {
                store.claim(conn, opId, digest, command, engine.clock().instant());
                return new Begin(Kind.RUN, null, 0);
            }
            OperationStore.Operation operation = earlier.get();
            if (!operation.digest().equals(digest)) {
                throw new UsageException("--op-id " + opId + " was already used for another request ("
                        + operation.command() + ")", "use a new --op-id for a new request; the same id is for"
                        + " retrying exactly the same command");
            }
            if (operation.answered()) {
                return new Begin(Kind.REPLAY, operation.stdout(), operation.exitCode());
            }
            return new Begin(Kind.RUN_AGAIN, null, 0);
        });
    }

    /**
     * What a run under an operation id answered.
     *
     * @param stdout   what it printed (a CLI line's stdout, an MCP tool's document)
     * @param exitCode its exit code (docs/exit-codes.md)
     * @param replayed true when this is the recorded answer of an earlier run, which changed nothing now
     */
    public record Answer(String stdout, int exitCode, boolean replayed) {
    }

    /** Opens the queue's operations for one step (a CLI line opens the queue anew for each). */
    public interface Access {
        void with(Consumer<Operations> step);
    }

    /**
     * Op-id replay, the one policy of every front end: a request already answered under
     * {@code opId} gets that answer again ({@code replayed}) and does not run; the same id with
     * another request is a usage error; a new (or never answered) one runs. Its answer is recorded
     * when it exited 0 or 1 (done, or failed as data); a usage error (exit 2, or thrown: nothing
     * changed) frees the id for a corrected request; anything else (interrupted, a bug) leaves it
     * open, so a retry runs again (a submit's retry finds the jobs it stored under the id).
     *
     * @param digest  the canonical digest of the request
     * @param command the request as text, for the error naming what the id was used for
     */
    public static Answer once(Access operations, String opId, String digest, String command, Supplier<Answer> run) {
        check(opId);
        Begin[] begin = new Begin[1];
        operations.with(opened -> begin[0] = opened.begin(opId, digest, command));
        if (begin[0].kind() == Kind.REPLAY) {
            return new Answer(begin[0].stdout(), begin[0].exitCode(), true);
        }
        Answer answer;
        try {
            answer = run.get();
        } catch (UsageException e) {
            operations.with(opened -> opened.forget(opId));
            throw e;
        }
        if (answer.exitCode() == 0 || answer.exitCode() == NvidbException.EXIT_FAILED) {
            operations.with(opened -> opened.finish(opId, answer.exitCode(), answer.stdout()));
        } else if (answer.exitCode() == NvidbException.EXIT_USAGE) {
            operations.with(opened -> opened.forget(opId));
        }
        return answer;
    }

    /** SHA-256 of {@code parts}, each length-prefixed (no two lists share one), in hex. */
    public static String digest(List<String> parts) {
        MessageDigest sha = sha256();
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha.update((bytes.length + ":").getBytes(StandardCharsets.UTF_8));
            sha.update(bytes);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** SHA-256 of {@code bytes}, in hex. */
    public static String digest(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records the answer of the operation's run (the first one recorded stays). */
    public void finish(String opId, int exitCode, String stdout) {
        store.finish(opId, exitCode, stdout, engine.clock().instant());
    }

    /** Forgets an operation whose run changed nothing (a usage error), so its id may name a corrected request. */
    public void forget(String opId) {
        store.forget(opId);
    }
}
