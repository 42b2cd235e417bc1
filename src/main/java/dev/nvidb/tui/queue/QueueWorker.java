package dev.nvidb.tui.queue;

import dev.nvidb.error.NvidbException;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.OutputChunk;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.Refresh;
import dev.nvidb.queue.QueueStatus;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Everything the queue screen needs that can take time, each on a thread of its own so that
 * nothing waits behind what is slow: reads of the database ({@code queue-tui-read}, every
 * second), ticks with their SSH probes ({@code queue-tui-tick}), the user's actions
 * ({@code queue-tui-action}: a cancel asks the job's node first) and log tails
 * ({@code queue-tui-log}). An unreachable node slows the tick and that node's log, never the
 * reads, the other actions or the keys. Results are published in volatile fields and counted in
 * {@link #version()}, which the input thread compares to decide when to redraw.
 */
final class QueueWorker implements AutoCloseable {

    /** Finished jobs shown below the active ones. */
    static final int RECENT = 50;
    private static final Duration READ_EVERY = Duration.ofSeconds(1);
    private static final int LOG_LINES = 200;
    private static final int MAX_QUEUED_ACTIONS = 8;

    /** One thing the user asked for; returns the line that says what it did. */
    interface Action {
        String run(Queue queue);
    }

    private final Queue queue;
    private final Supplier<KeeperState> keeper;
    private final Clock clock;
    private final Duration refresh;
    private final ScheduledExecutorService reads = Executors.newSingleThreadScheduledExecutor(named("queue-tui-read"));
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(named("queue-tui-tick"));
    private final ExecutorService actions = Executors.newSingleThreadExecutor(named("queue-tui-action"));
    private final ScheduledExecutorService logs = Executors.newSingleThreadScheduledExecutor(named("queue-tui-log"));
    private final AtomicLong version = new AtomicLong();
    private final AtomicBoolean tickRunning = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicInteger actionsWaiting = new java.util.concurrent.atomic.AtomicInteger();
    private volatile QueueData data = QueueData.empty();
    private volatile LogData log;
    private volatile Message message;
    private volatile boolean automatic;
    private volatile Long followed;

    /**
     * @param queue     the queue (its database serialises the threads' transactions)
     * @param keeper    reads the keeper's state (null when none is installed)
     * @param clock     the time shown and compared
     * @param refresh   how often automatic ticking ticks ({@code --refresh})
     * @param automatic whether to tick automatically from the start
     */
    QueueWorker(Queue queue, Supplier<KeeperState> keeper, Clock clock, Duration refresh, boolean automatic) {
        this.queue = queue;
        this.keeper = keeper;
        this.clock = clock;
        this.refresh = refresh;
        this.automatic = automatic;
    }

    void start() {
        reads.scheduleWithFixedDelay(this::read, 0, READ_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        ticks.scheduleWithFixedDelay(() -> {
            if (automatic) {
                tick(false);
            }
        }, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
        logs.scheduleWithFixedDelay(this::readLog, 0, READ_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    long version() {
        return version.get();
    }

    QueueData data() {
        return data;
    }

    /** The followed job's log, or null when no log is followed or none was read yet. */
    LogData log() {
        LogData current = log;
        Long job = followed;
        return current != null && job != null && current.jobId() == job ? current : null;
    }

    Message message() {
        return message;
    }

    boolean automatic() {
        return automatic;
    }

    Duration refresh() {
        return refresh;
    }

    void say(String text, boolean error) {
        message = new Message(text, error, clock.instant());
        version.incrementAndGet();
    }

    void setAutomatic(boolean on) {
        automatic = on;
        say(on ? "automatic ticking on: a tick every " + refresh.toSeconds() + " s when one is due"
                : "automatic ticking off: press t to tick", false);
    }

    /** Follows {@code jobId}'s log (null: none); the first read starts at once. */
    void follow(Long jobId) {
        followed = jobId;
        if (jobId != null) {
            logs.execute(this::readLog);
        }
        version.incrementAndGet();
    }

    /** A tick now, whether or not one is due (the {@code t} key). */
    void tickNow() {
        if (tickRunning.get()) {
            say("a tick is already running", false);
            return;
        }
        ticks.execute(() -> tick(true));
    }

    /**
     * Runs {@code action} on the action thread, after the ones before it, and reports its line.
     * At most {@link #MAX_QUEUED_ACTIONS} wait: past that, a key held down is refused rather
     * than queued for minutes behind an unreachable node.
     */
    void act(String doing, Action action) {
        if (actionsWaiting.incrementAndGet() > MAX_QUEUED_ACTIONS) {
            actionsWaiting.decrementAndGet();
            say("still busy with earlier actions; " + doing + " was not done", true);
            return;
        }
        say(doing + "…", false);
        actions.execute(() -> {
            try {
                say(action.run(queue), false);
            } catch (NvidbException e) {
                say(e.getMessage() + e.hint().map(hint -> " (" + hint + ")").orElse(""), true);
            } catch (RuntimeException e) {
                say(doing + " failed: " + e, true);
            } finally {
                actionsWaiting.decrementAndGet();
                reads.execute(this::read);
            }
        });
    }

    /** Actions asked for and not yet done. */
    int actionsWaiting() {
        return actionsWaiting.get();
    }

    private void tick(boolean forced) {
        if (!tickRunning.compareAndSet(false, true)) {
            return;
        }
        data = data.withTick(clock.instant(), data.tickError());
        version.incrementAndGet();
        String error = null;
        try {
            queue.refreshed(forced ? Refresh.NOW : Refresh.IF_DUE);
        } catch (NvidbException e) {
            error = e.getMessage();
        } catch (RuntimeException e) {
            error = e.toString();
        } finally {
            data = data.withTick(null, error);
            tickRunning.set(false);
            version.incrementAndGet();
            reads.execute(this::read);
        }
        if (forced && error == null) {
            say("ticked", false);
        }
    }

    /** Reads the queue now, on the calling thread (the read thread does this every second). */
    void read() {
        try {
            QueueStatus status = queue.reading().status(false, RECENT);
            KeeperState state = keeper.get();
            data = data.withRead(status, state, clock.instant());
        } catch (NvidbException e) {
            data = data.withReadError(e.getMessage());
        } catch (RuntimeException e) {
            data = data.withReadError(e.toString());
        }
        version.incrementAndGet();
    }

    private void readLog() {
        Long jobId = followed;
        if (jobId == null) {
            return;
        }
        try {
            JobView job = queue.reading().getJob(jobId);
            if (job.job().assignment() == null) {
                log = new LogData(jobId, "", "job " + jobId + " has not started: no output yet", clock.instant());
            } else {
                OutputChunk chunk = queue.logs().lastLines(job, false, LOG_LINES);
                log = new LogData(jobId, new String(chunk.bytes(), StandardCharsets.UTF_8), null, clock.instant());
            }
        } catch (NvidbException e) {
            LogData last = log;
            String text = last != null && last.jobId() == jobId ? last.text() : null;
            log = new LogData(jobId, text, e.getMessage(), clock.instant());
        } catch (RuntimeException e) {
            log = new LogData(jobId, null, e.toString(), clock.instant());
        }
        version.incrementAndGet();
    }

    @Override
    public void close() {
        for (ExecutorService executor : new ExecutorService[] {reads, ticks, actions, logs}) {
            executor.shutdownNow();
        }
    }

    private static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
