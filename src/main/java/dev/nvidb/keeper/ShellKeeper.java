package dev.nvidb.keeper;

import dev.nvidb.error.NodeException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shell keeper: installs {@code queue-keeper.sh}, starts it detached (its own session,
 * stdin from {@code /dev/null}, output to its log), reads its state from the pid file and
 * {@code /proc}, and stops it with its daemon. Reading the state forks nothing.
 */
final class ShellKeeper {

    /** How long {@code start} waits for the supervisor to record itself. */
    static final Duration START_WAIT = Duration.ofSeconds(SupervisorScript.GRACE_SECONDS + 10);

    private final KeeperFiles files;
    private final Map<String, String> environment;

    ShellKeeper(KeeperFiles files, Map<String, String> environment) {
        this.files = files;
        this.environment = environment;
    }

    boolean installed() {
        return Files.isRegularFile(files.script());
    }

    void install(Path launcher, String interval, Path java) {
        requireSupport();
        try {
            KeeperFiles.write(files.script(), SupervisorScript.render(launcher, files.home(), interval, java), "rwx------");
        } catch (IOException e) {
            throw new NodeException("cannot write " + files.script() + ": " + e.getMessage(),
                    "check that NVIDB_HOME (" + files.home() + ") is a directory of yours with free space", e);
        }
    }

    /** Removes the script (after {@link #stop}), so that another kind of keeper can take over. */
    void uninstall() {
        try {
            Files.deleteIfExists(files.script());
        } catch (IOException e) {
            throw new NodeException("cannot remove " + files.script() + ": " + e.getMessage());
        }
    }

    /** The keeper's state: a file read and a look at /proc, nothing forked. */
    KeeperState state() {
        Optional<SupervisorRecord> found = SupervisorRecord.read(files.pidFile());
        if (found.isEmpty()) {
            return KeeperState.down(KeeperState.Kind.SHELL, files.script(), null, "not running");
        }
        SupervisorRecord record = found.get();
        Optional<ProcessEntry> supervisor = record.supervisor();
        if (supervisor.isEmpty()) {
            return KeeperState.down(KeeperState.Kind.SHELL, files.script(), record.interval(),
                    "its supervisor (pid " + record.supervisorPid() + ") is gone");
        }
        Optional<ProcessEntry> daemon = record.daemon();
        boolean failing = record.quickExits() >= SupervisorScript.FAILING_AFTER;
        String detail = failing ? "its daemon exited " + record.quickExits() + " times in a row within "
                + SupervisorScript.QUICK_SECONDS + " s of starting (last exit status " + record.lastExit() + ")" : null;
        return new KeeperState(KeeperState.Kind.SHELL, failing ? KeeperState.Condition.FAILING : KeeperState.Condition.UP,
                record.supervisorPid(), daemon.map(ProcessEntry::pid).orElse(null), record.startedAt(),
                daemon.isPresent() ? record.daemonSince() : null, record.restarts(), record.lastRestartAt(),
                record.lastExit(), daemon.isPresent() ? null : record.nextStartAt(), record.interval(), files.script(),
                detail);
    }

    /** Starts the supervisor unless one runs; returns its state once it recorded itself. */
    KeeperState start() {
        requireSupport();
        KeeperState now = state();
        if (now.condition() != KeeperState.Condition.DOWN) {
            return now;
        }
        SupervisorRecord.read(files.pidFile()).ifPresent(this::endLeftovers);
        spawn();
        long deadline = System.nanoTime() + START_WAIT.toNanos();
        while (true) {
            KeeperState state = state();
            if (state.condition() != KeeperState.Condition.DOWN) {
                return state;
            }
            if (System.nanoTime() >= deadline) {
                throw new NodeException("the queue keeper did not start within " + START_WAIT.toSeconds() + " s",
                        "see its log: nvidb queue keeper logs");
            }
            pause();
        }
    }

    /**
     * Stops the supervisor (TERM: it stops its daemon's group and removes its pid file), then
     * whatever is left: the daemon's group (TERM, KILL after the grace) and the supervisor's
     * session. True when something was running.
     */
    boolean stop() {
        Optional<SupervisorRecord> found = SupervisorRecord.read(files.pidFile());
        if (found.isEmpty()) {
            return false;
        }
        SupervisorRecord record = found.get();
        boolean running = record.supervisor().isPresent() || record.daemon().isPresent();
        if (record.supervisor().isPresent()) {
            ProcessGroups.signal(record.supervisorPid(), record.supervisorStart(), false);
            Duration grace = Duration.ofSeconds(SupervisorScript.GRACE_SECONDS + 5);
            if (!ProcessGroups.awaitGone(record.supervisorPid(), record.supervisorStart(), grace)) {
                ProcessGroups.signal(record.supervisorPid(), record.supervisorStart(), true);
                ProcessGroups.awaitGone(record.supervisorPid(), record.supervisorStart(), Duration.ofSeconds(5));
            }
        }
        endLeftovers(record);
        try {
            Optional<SupervisorRecord> after = SupervisorRecord.read(files.pidFile());
            if (after.isPresent() && after.get().supervisorPid() == record.supervisorPid()) {
                Files.deleteIfExists(files.pidFile());
            }
        } catch (IOException e) {
            // A pid file naming a dead supervisor reads as down; the next start overwrites it.
        }
        return running;
    }

    /** The last {@code lines} lines of the log (reaching into the previous part when needed). */
    List<String> logs(int lines) {
        return LogTail.last(List.of(files.oldLog(), files.log()), lines);
    }

    Path log() {
        return files.log();
    }

    /** What a dead supervisor left: its daemon's group and its own session (a sleeping timer). */
    private void endLeftovers(SupervisorRecord record) {
        if (record.supervisor().isPresent()) {
            return;
        }
        ProcessGroups.terminate(record.daemonPid(), record.daemonStart(), false,
                Duration.ofSeconds(SupervisorScript.GRACE_SECONDS));
        ProcessGroups.terminate(record.supervisorPid(), record.supervisorStart(), true, Duration.ZERO);
    }

    private void spawn() {
        // The shell starts the supervisor in the background and exits at once, so this command
        // does not wait for it; setsid gives it a session of its own, away from our terminal.
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c",
                "log=$1; shift; setsid \"$@\" </dev/null >>\"$log\" 2>&1 &", "sh", files.log().toString(),
                Programs.find(environment, "bash").orElse(Path.of("/bin/bash")).toString(), files.script().toString())
                .redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(environment);
        // Started by the ensure step of a forwarded command: the supervisor and its daemon are not
        // part of that forwarded command (which ends with its SSH session).
        builder.environment().remove("NVIDB_FORWARDED");
        try {
            Process shell = builder.start();
            shell.waitFor();
        } catch (IOException e) {
            throw new NodeException("cannot start the queue keeper: " + e.getMessage(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted while starting the queue keeper", e);
        }
    }

    /** The shell keeper needs Linux's /proc, bash, flock and setsid (util-linux). */
    private void requireSupport() {
        if (!ProcessEntry.available()) {
            throw new NodeException("the shell keeper needs Linux (/proc); this machine has none",
                    "run nvidb queue daemon under a service manager of this system instead");
        }
        for (String program : List.of("bash", "flock", "setsid")) {
            if (Programs.find(environment, program).isEmpty()) {
                throw new NodeException("the shell keeper needs " + program + ", which is not on PATH",
                        "install util-linux and bash (they provide flock, setsid and bash)");
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50); // a poll with a deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted while starting the queue keeper", e);
        }
    }
}
