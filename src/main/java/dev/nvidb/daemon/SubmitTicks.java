package dev.nvidb.daemon;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.queue.Passes;
import dev.nvidb.queue.Ticking;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;

/**
 * Places new jobs without making their submitter wait for SSH. A plain {@code job submit}
 * records the job and makes sure one background process (the submit ticker) is ticking for
 * this database; the ticker ticks until no job has been submitted since its last tick began
 * and none arrives for a short linger, so a loop of submits shares one process, one set of
 * SSH connections and a few ticks. The ticker holds an exclusive lock on a file beside the
 * database while it runs; a submitter that finds the lock free starts one.
 *
 * <p>No submit is left behind: the ticker checks for newer jobs after releasing the lock, and
 * a submitter records its job before it looks at the lock. Either the submitter saw the lock
 * held (so the ticker's check after releasing it sees the job) or it starts a ticker itself.
 *
 * <p>A ticker takes a few tenths of a second to start (a JVM, the configuration, the database).
 * The submitter that starts one first writes a marker beside the database ({@link
 * #startingFile}); the ticker removes it once it serves the daemon's socket, or finds it cannot,
 * or ends. A command handed to the daemon ({@link Handoff}) that finds the marker fresh and no
 * socket waits for the ticker instead of paying for a cold JVM of its own beside the one
 * starting.
 */
public final class SubmitTicks {

    private static final Duration POLL = Duration.ofMillis(100);
    /** How long a ticker going away lets the command lines handed to it finish. */
    private static final Duration DRAIN = Duration.ofSeconds(60);
    /**
     * Least time from one tick's start to the next: during a loop of submits each tick then
     * places a batch, and the loop's own commands are not starved of CPU by back-to-back
     * ticks, while a job still starts within about this gap plus one tick.
     */
    static final Duration GAP = Duration.ofSeconds(1);

    private SubmitTicks() {
    }

    /** The lock file of the ticker for {@code database}. */
    public static Path lockFile(Path database) {
        return database.resolveSibling(database.getFileName() + ".ticker");
    }

    /** The marker of a ticker being started for {@code database} (see the class comment). */
    public static Path startingFile(Path database) {
        return database.resolveSibling(database.getFileName() + ".ticker-starting");
    }

    /** Writes the marker just before a ticker for {@code database} is started (its time is the start's). */
    public static void markStarting(Path database) throws IOException {
        Path marker = startingFile(database);
        Files.deleteIfExists(marker);
        Files.createFile(marker, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    /** Removes the marker: the ticker serves the socket, could not, or is gone (or never started). */
    public static void startOver(Path database) {
        try {
            Files.deleteIfExists(startingFile(database));
        } catch (IOException e) {
            // a marker left behind is ignored once it is a few seconds old
        }
    }

    /** True when no ticker holds the lock for {@code database} (so one should be started). */
    public static boolean idle(Path database) {
        try (FileChannel channel = open(database); FileLock lock = channel.tryLock()) {
            return lock != null;
        } catch (OverlappingFileLockException e) {
            return false; // this very process is the ticker
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Ticks {@code queue} until it has placed every job submitted so far and none arrived during
     * {@code linger}. Returns the number of ticks run; 0 when another ticker holds the lock.
     */
    public static int run(Passes queue, Duration linger) {
        return run(queue, linger, null);
    }

    /**
     * As {@link #run(Passes, Duration)}, and while the ticker holds its lock it serves the
     * database's daemon socket when no daemon does ({@link DaemonServer}: wake, passes on
     * request, and the burst's next command lines, run with {@code commands}; none when null).
     * The socket closes, and the lines under way finish, before the lock is released: a submit
     * the ticker ran is then seen by the check that follows.
     */
    public static int run(Passes queue, Duration linger, DaemonServer.Commands commands) {
        try {
            // A burst ticks once a second: an agent kept running on each node answers those ticks
            // without a new SSH channel and Python start each time (the daemon's warm path, for as
            // long as the ticker lives). The jobs it launched outlive it, as they outlive a daemon.
            try (Ticking.AgentScope agents = queue.keepAgents()) {
                return ticks(queue, linger, commands);
            }
        } finally {
            startOver(queue.database());
        }
    }

    private static int ticks(Passes queue, Duration linger, DaemonServer.Commands commands) {
        Path database = queue.database();
        int ticks = 0;
        long covered;
        do {
            try (FileChannel channel = open(database); FileLock lock = channel.tryLock()) {
                if (lock == null) {
                    return ticks;
                }
                covered = queue.lastJobId();
                // While it lingers the ticker is the database's daemon (when none runs): commands
                // wake it or ask it for passes, and hand it their lines, instead of paying cold
                // SSH and a cold JVM each.
                DaemonServer server = commands == null ? null
                        : DaemonServer.start(queue.becomeDaemon(), commands).orElse(null);
                startOver(database);   // commands waiting for this ticker go ahead: to its socket, or their own way
                try {
                    while (true) {
                        long started = System.nanoTime();
                        queue.tick(server == null ? Passes.TickWatch.NONE : server.tickWatch());
                        ticks++;
                        Activity next = awaitActivity(server, queue, covered, linger);
                        if (next == Activity.NONE) {
                            break;
                        }
                        if (next == Activity.NEWER_JOB) {
                            sleepUntil(started + GAP.toNanos());
                        }
                        covered = queue.lastJobId();
                    }
                } finally {
                    if (server != null) {
                        server.close(DRAIN);
                    }
                }
            } catch (IOException | OverlappingFileLockException e) {
                return ticks;
            }
            // A submit that found the lock still held just before it was released is ours, as
            // is one a handed line stored while the server drained.
        } while (queue.lastJobId() > covered);
        return ticks;
    }

    private enum Activity { REQUEST, NEWER_JOB, NONE }

    /**
     * Waits up to {@code linger} for a command's request (a pass at once, as a daemon answers)
     * or a job newer than {@code covered} (a submit that did not wake us: the next pass keeps
     * the gap).
     */
    private static Activity awaitActivity(DaemonServer server, Passes queue, long covered, Duration linger) {
        long deadline = System.nanoTime() + linger.toNanos();
        while (true) {
            if (server != null) {
                if (server.awaitRequest(POLL)) {
                    return Activity.REQUEST;
                }
            } else {
                sleepUntil(System.nanoTime() + POLL.toNanos());
            }
            if (queue.lastJobId() > covered) {
                return Activity.NEWER_JOB;
            }
            if (System.nanoTime() >= deadline) {
                return Activity.NONE;
            }
        }
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            try {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedByUser("interrupted while waiting for submits", e);
            }
        }
    }

    private static FileChannel open(Path database) throws IOException {
        return FileChannel.open(lockFile(database), Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
}
