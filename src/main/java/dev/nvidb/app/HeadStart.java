package dev.nvidb.app;

import dev.nvidb.queue.AgentHeadStart;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Work begun on a second thread before a command line is parsed, for the lines that wait for
 * jobs ({@code job submit --wait}, {@code job wait}): it loads the configuration and starts the
 * nodes' agents ({@link AgentHeadStart}) while the JVM loads and runs picocli, so the first
 * tick finds its SSH connections open instead of opening them. It changes nothing (the
 * database is only read) and prints nothing: the configuration's warnings are printed when the
 * command takes the wiring. The command takes it with {@link #wiring} once its options are
 * known; a line that turns out to be something else (a usage error, other options) closes it
 * unused, and so does {@link #close} when the command never asked.
 */
public final class HeadStart implements AutoCloseable {

    /** No head start: every command makes its own wiring. */
    public static final HeadStart NONE = new HeadStart(null);

    /** Options a waiting line may not have for the head start's guess to hold (it opens the default database, ticking). */
    private static final List<String> OTHER_QUEUE = List.of("--db-path", "--local", "--no-tick", "--remote", "-h",
            "--help", "--version");

    private final FutureTask<Wiring> begun;
    private boolean ended;

    private HeadStart(FutureTask<Wiring> begun) {
        this.begun = begun;
    }

    /** Begins the head start when {@code args} is a line that waits for jobs; otherwise {@link #NONE}. */
    public static HeadStart begin(Wiring.Front context, String[] args) {
        if (!waits(args)) {
            return NONE;
        }
        FutureTask<Wiring> task = new FutureTask<>(() -> prepare(context));
        Thread thread = new Thread(task, "head-start");
        thread.setDaemon(true);
        thread.start();
        return new HeadStart(task);
    }

    /**
     * Whether {@code args} (before any {@code --}) is {@code job submit … --wait} or
     * {@code job wait …} on this machine's default queue, ticking: a cheap guess from the words,
     * which {@link #wiring} checks against the parsed options.
     */
    public static boolean waits(String[] args) {
        List<String> words = new java.util.ArrayList<>();
        boolean waitOption = false;
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (OTHER_QUEUE.stream().anyMatch(option -> arg.equals(option) || arg.startsWith(option + "="))) {
                return false;
            }
            waitOption |= arg.equals("--wait");
            if (!arg.startsWith("-") && words.size() < 2) {
                words.add(arg);
            }
        }
        return words.equals(List.of("job", "wait")) || words.equals(List.of("job", "submit")) && waitOption;
    }

    /** The wiring with the agents started, or null when there is nothing to start (the command then starts its own). */
    private static Wiring prepare(Wiring.Front context) {
        Wiring wiring = new Wiring(context);
        try {
            if (wiring.beginAgents()) {
                return wiring;
            }
        } catch (RuntimeException e) {
            // Only a head start: the command meets (and reports) the same trouble itself.
        }
        wiring.close();
        return null;
    }

    /**
     * The wiring for a command with {@code options} that keeps agents: the one begun ahead (its
     * agents starting or started) when {@code options} are those it assumed, else a new one.
     * The caller closes what it gets.
     */
    public synchronized Wiring wiring(Wiring.Front context, Wiring.QueueChoice options) {
        Wiring early = take();
        boolean fits = options.dbPath() == null && !options.local() && !options.noTick();
        if (early != null && fits) {
            early.sayConfigWarnings();
            return early;
        }
        if (early != null) {
            early.close();
        }
        return new Wiring(context);
    }

    /** The begun wiring, waiting for it; null when none was begun or it came to nothing. Once. */
    private Wiring take() {
        if (begun == null || ended) {
            return null;
        }
        ended = true;
        try {
            return begun.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeWhenDone();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }

    /** Closes the head start if no command took it; one still starting is closed when it is done. */
    @Override
    public synchronized void close() {
        if (begun == null || ended) {
            return;
        }
        ended = true;
        closeWhenDone();
    }

    private void closeWhenDone() {
        if (begun.isDone()) {
            closeQuietly();
            return;
        }
        Thread closer = new Thread(this::closeQuietly, "head-start-close");
        closer.setDaemon(true);
        closer.start();
    }

    private void closeQuietly() {
        try {
            Optional.ofNullable(begun.get()).ifPresent(Wiring::close);
        } catch (InterruptedException | ExecutionException e) {
            // Nothing was begun that needs closing.
        }
    }
}
