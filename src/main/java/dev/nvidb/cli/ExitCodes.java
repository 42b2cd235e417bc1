package dev.nvidb.cli;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;

/**
 * The one table from how a command ended to the process exit code (DESIGN.md §5,
 * docs/exit-codes.md). Commands return {@code ExitCodes.of(Outcome.…)}, failures are mapped
 * by {@link #of(Throwable)}, and an interrupted command is 130 wherever the interrupt landed.
 */
public final class ExitCodes {

    /** How a command ended, in the words of the exit-code contract. */
    public enum Outcome {
        /** Did what was asked. */
        OK,
        /** An operation failed: a node did not answer, a job could not be changed, no result yet. */
        FAILED,
        /** A job that was waited for ended badly (failed, cancelled, timeout, lost). */
        JOB_FAILED,
        /** {@code queue alerts}: an alert is open. */
        ALERTS_OPEN,
        /** Bad input on the command line, or a group command given no subcommand. */
        USAGE,
        /** {@code job wait} / {@code submit --wait} gave up with a job still pending or running. */
        WAIT_TIMED_OUT,
        /** Ctrl-C, or the command's thread was interrupted. */
        INTERRUPTED,
        /** A bug in nvidb (EX_SOFTWARE). */
        INTERNAL
    }

    /** Exit code for a bug in nvidb itself (EX_SOFTWARE). */
    public static final int EXIT_INTERNAL = 70;

    private ExitCodes() {
    }

    /** The exit code for {@code outcome}: 0 ok; 1 failed; 2 usage or wait timed out; 130 interrupted; 70 internal. */
    public static int of(Outcome outcome) {
        return switch (outcome) {
            case OK -> 0;
            case FAILED, JOB_FAILED, ALERTS_OPEN -> NvidbException.EXIT_FAILED;
            case USAGE, WAIT_TIMED_OUT -> NvidbException.EXIT_USAGE;
            case INTERRUPTED -> InterruptedByUser.EXIT_INTERRUPTED;
            case INTERNAL -> EXIT_INTERNAL;
        };
    }

    /** The exit code of a command that did what was asked. */
    public static int ok() {
        return of(Outcome.OK);
    }

    /** {@link Outcome#OK} when {@code ok}, else {@code otherwise}. */
    public static int okOr(boolean ok, Outcome otherwise) {
        return of(ok ? Outcome.OK : otherwise);
    }

    /** The outcome of a command that ended with {@code failure}. */
    public static Outcome outcome(Throwable failure) {
        if (interrupted(failure)) {
            return Outcome.INTERRUPTED;
        }
        if (failure instanceof NvidbException nvidb) {
            return nvidb.exitCode() == NvidbException.EXIT_USAGE ? Outcome.USAGE : Outcome.FAILED;
        }
        return Outcome.INTERNAL;
    }

    /** The exit code of a command that ended with {@code failure}. */
    public static int of(Throwable failure) {
        return of(outcome(failure));
    }

    /**
     * True when {@code failure} comes from an interrupt: the thread's flag is set (whoever
     * caught the {@link InterruptedException} restored it, whatever they threw instead), or
     * an interrupt is in its cause chain.
     */
    static boolean interrupted(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedByUser || cause instanceof InterruptedException
                    || cause instanceof ClosedByInterruptException
                    || (cause instanceof InterruptedIOException && !(cause instanceof java.net.SocketTimeoutException))) {
                return true;
            }
        }
        return false;
    }
}
