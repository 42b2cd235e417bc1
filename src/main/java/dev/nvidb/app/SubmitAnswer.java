package dev.nvidb.app;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonJobs;
import dev.nvidb.queue.JobView;
import java.io.PrintWriter;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Makes a submit's answer true to what it stored, even when Ctrl-C (SIGINT, or SIGTERM) lands
 * in the middle: either nothing was stored and the command exits non-zero, or the job's id is
 * printed and the command exits 0 ({@code --wait}: the id is on stderr and the interrupted wait
 * exits 130, the job staying queued).
 *
 * <p>A signal makes the JVM run its shutdown hooks while the command's thread goes on. The
 * process's hook ({@link #installProcessHook}, from {@code cli.Main}) takes the same lock as the
 * insert: a signal during the insert waits for its commit (the signal is deferred), a signal
 * before it stops the insert from starting, and a signal after it prints the stored job's
 * answer unless the command already did, then ends the process with 0 (or with the command's
 * own code when it had already finished). A tick or ticker start that the signal cuts short is the next command's
 * to finish, as after a kill.
 */
public final class SubmitAnswer {

    /** Whether this process runs the hook (a real {@code nvidb} process, not a command run in-process). */
    private static volatile boolean installed;
    /** The submit of this process, once it started. */
    private static volatile SubmitAnswer active;
    /** The exit code of the finished command, once {@code cli.Main} has it. */
    private static volatile Integer finished;
    /** Set on a daemon's thread running a handed-off line: the process's signals are not that command's. */
    private static final ThreadLocal<Boolean> HANDED_OFF = new ThreadLocal<>();

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private final boolean waiting;
    private boolean closing;
    private Long id;
    private JobView stored;
    private boolean printed;
    private dev.nvidb.queue.Submitted submitted;

    /**
     * @param out     where the answer goes
     * @param err     where the notices go
     * @param json    answer with the JSON document
     * @param waiting the command waits for the job ({@code --wait}): its answer is the wait's report
     */
    public SubmitAnswer(PrintWriter out, PrintWriter err, boolean json, boolean waiting) {
        this.out = out;
        this.err = err;
        this.json = json;
        this.waiting = waiting;
        if (installed && !Boolean.TRUE.equals(HANDED_OFF.get())) {
            active = this;
        }
    }

    /**
     * Runs a command handed to the daemon ({@code cli.HandoffService}): a submit there answers
     * its own client, and the daemon's process hook (a signal to the daemon) leaves it alone.
     */
    public static int handedOff(java.util.function.IntSupplier command) {
        HANDED_OFF.set(Boolean.TRUE);
        try {
            return command.getAsInt();
        } finally {
            HANDED_OFF.remove();
        }
    }

    /**
     * Called once by {@link Main} at start: a signal's shutdown runs {@link #onShutdown}. Commands
     * run in-process (tests) have no hook and no signals to answer.
     */
    public static void installProcessHook() {
        installed = true;
        Runtime.getRuntime().addShutdownHook(new Thread(SubmitAnswer::onShutdown, "submit-answer"));
    }

    /** The command returned {@code code}; {@link Main} exits with it next, whatever signal arrives meanwhile. */
    public static void finished(int code) {
        finished = code;
    }

    /**
     * Runs at every exit of a process that ran a submit. A command that finished exits with its
     * own code even when a signal arrives while it exits; a submit still running answers.
     */
    private static void onShutdown() {
        SubmitAnswer answer = active;
        if (answer == null) {
            return;
        }
        Integer code = finished;
        if (code != null) {
            Runtime.getRuntime().halt(code);
        }
        answer.onSignal();
    }

    /**
     * Stores the job ({@code insert}) unless the process is already being stopped, and keeps its
     * view as read right after the insert, for an answer printed by the hook.
     *
     * @throws InterruptedByUser when the command was interrupted before anything was stored
     */
    public synchronized long store(LongSupplier insert, LongFunction<JobView> read) {
        if (closing || Thread.currentThread().isInterrupted()) {
            throw new InterruptedByUser("interrupted before the job was stored; nothing was queued");
        }
        long stored = insert.getAsLong();
        this.id = stored;
        try {
            this.stored = read.apply(stored);
        } catch (RuntimeException e) {
            this.stored = null; // the answer then carries the id alone
        }
        return stored;
    }

    /** What the submit stored (an array's cells, or a job found by its key), for the answer. */
    public synchronized void submitted(dev.nvidb.queue.Submitted what) {
        this.submitted = what;
    }

    /** Prints the answer for the stored job (once): {@code view}, or the view read at the insert when null. */
    public synchronized void print(JobView view) {
        if (printed || id == null) {
            return;
        }
        printed = true;
        JobView answer = view != null ? view : stored;
        if (submitted != null && (submitted.cells().size() > 1 || submitted.cells().get(0).existing() || json)) {
            answer(submitted, answer);
        } else if (answer != null) {
            answer(answer);
        } else if (json) {
            out.println(Json.write(JsonJobs.idOnly(id)));
        } else {
            out.println(id);
            err.println("submitted job " + id);
        }
        out.flush();
        err.flush();
    }

    /** The job the command stored, or null before the insert. */
    public synchronized Long id() {
        return id;
    }

    private void onSignal() {
        synchronized (this) {
            closing = true;
            if (id == null) {
                return;
            }
            if (waiting) {
                err.println("nvidb: interrupted while waiting for job " + id + "; it stays queued"
                        + " (nvidb job cancel " + id + " stops it)");
                err.flush();
                return;
            }
            print(null);
        }
        Runtime.getRuntime().halt(0);
    }

    /** One job's answer: its id on stdout and a line on stderr, or its JSON document. */
    private void answer(JobView view) {
        if (json) {
            out.println(Json.write(JsonJobs.one(dev.nvidb.output.JsonJob.of(view), null)));
            return;
        }
        out.println(view.id());
        err.println(dev.nvidb.output.JobText.submitted(view));
    }

    /**
     * A submit's answer: one job as above, with a line on stderr when its key was held; an
     * array: its ids on stdout, one a line, and a summary on stderr.
     */
    private void answer(dev.nvidb.queue.Submitted what, JobView first) {
        java.util.List<dev.nvidb.queue.Submitted.Cell> cells = what.cells();
        dev.nvidb.queue.Submitted.Cell head = cells.get(0);
        if (json) {
            out.println(Json.write(JsonJobs.submitted(what, first == null ? null : dev.nvidb.output.JsonJob.of(first))));
            return;
        }
        if (cells.size() == 1 && first != null) {
            if (head.existing()) {
                out.println(head.id());
                err.println(dev.nvidb.output.JobText.existing(head));
                return;
            }
            answer(first);
            return;
        }
        cells.forEach(cell -> out.println(cell.id()));
        err.println(dev.nvidb.output.JobText.submitted(what));
    }
}
