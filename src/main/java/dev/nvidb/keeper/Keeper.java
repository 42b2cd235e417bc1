package dev.nvidb.keeper;

import dev.nvidb.config.FileTrust;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.error.NodeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keeper of one {@code NVIDB_HOME}: what keeps {@code nvidb queue daemon} running so the
 * queue moves while nobody types. Two kinds: the shell supervisor ({@code queue-keeper.sh},
 * the default, needing nothing but bash and util-linux) and the systemd user unit
 * {@code nvidb-queue.service}. Installing one kind removes the other. {@link #state()} is cheap
 * enough for every {@code queue status}: a file read and a look at {@code /proc}, nothing forked.
 */
public final class Keeper {

    /** The daemon's interval when none is given, in seconds. */
    public static final String DEFAULT_INTERVAL = "15";
    /** The environment variable in which bin/nvidb names itself. */
    public static final String LAUNCHER = "NVIDB_LAUNCHER";

    private final Map<String, String> environment;
    private final ShellKeeper shell;
    private final SystemdKeeper systemd;

    public Keeper(NvidbHome home, Map<String, String> environment) {
        FileTrust.requireTrusted(home.dir(), "NVIDB_HOME");
        this.environment = Map.copyOf(environment);
        KeeperFiles files = KeeperFiles.of(home, environment);
        FileTrust.requireTrusted(files.script(), "the queue keeper's script");
        this.shell = new ShellKeeper(files, this.environment);
        this.systemd = new SystemdKeeper(files, this.environment);
    }

    /** What {@code install} did: the kind and file written, the kind it replaced, the state when started. */
    public record Installed(KeeperState.Kind kind, Path file, KeeperState.Kind replaced, KeeperState started) {
    }

    /** What {@code ensure} found or did. */
    public enum Ensured {
        /** A keeper was up: nothing done. */
        ALREADY_UP,
        /** The installed keeper was down and is started. */
        STARTED,
        /** None was installed: the shell keeper is installed with the defaults and started. */
        INSTALLED
    }

    /** The last lines of the keeper's log, and where they come from. */
    public record Logs(KeeperState.Kind kind, String source, List<String> lines) {
    }

    /** The kind installed for this NVIDB_HOME, if any (the shell keeper when both are somehow there). */
    public Optional<KeeperState.Kind> installed() {
        if (shell.installed()) {
            return Optional.of(KeeperState.Kind.SHELL);
        }
        return systemd.installed() ? Optional.of(KeeperState.Kind.SYSTEMD) : Optional.empty();
    }

    /** The installed keeper's state, cheaply (nothing forked); empty when none is installed. */
    public Optional<KeeperState> state() {
        return installed().map(kind -> kind == KeeperState.Kind.SHELL ? shell.state() : systemd.state());
    }

    /** The installed keeper's state as fully as it is known (systemd: asks systemctl); empty when none. */
    public Optional<KeeperState> status() {
        return installed().map(kind -> kind == KeeperState.Kind.SHELL ? shell.state() : systemd.status());
    }

    /**
     * Writes the keeper of {@code kind} running {@code queue daemon --interval interval} through
     * the launcher that runs this command, replacing a keeper of the other kind. With
     * {@code start} it is started (restarted when it was running, so the new file applies).
     */
    public Installed install(KeeperState.Kind kind, String interval, boolean start) {
        Path launcher = launcher();
        Path java = java();
        KeeperState.Kind replaced = null;
        boolean wasUp = false;
        if (kind == KeeperState.Kind.SYSTEMD) {
            if (shell.installed()) {
                shell.stop();
                shell.uninstall();
                replaced = KeeperState.Kind.SHELL;
            }
            systemd.install(launcher, interval, java);
            if (start) {
                systemd.enableNow();
                return new Installed(kind, systemd.unit(), replaced, systemd.status());
            }
            return new Installed(kind, systemd.unit(), replaced, null);
        }
        if (systemd.installed()) {
            systemd.uninstall();
            replaced = KeeperState.Kind.SYSTEMD;
        } else {
            wasUp = shell.installed() && shell.state().condition() != KeeperState.Condition.DOWN;
        }
        shell.install(launcher, interval, java);
        if (!start) {
            return new Installed(kind, shell.state().file(), replaced, null);
        }
        if (wasUp) {
            shell.stop();
        }
        return new Installed(kind, shell.state().file(), replaced, shell.start());
    }

    /** Starts the installed keeper unless it runs; its state after. Fails when none is installed. */
    public KeeperState start() {
        KeeperState.Kind kind = require();
        if (kind == KeeperState.Kind.SHELL) {
            return shell.start();
        }
        systemd.start();
        return systemd.status();
    }

    /**
     * Makes the queue move if it does not: nothing when a keeper is up (a file read); the
     * installed keeper started when it is down; the shell keeper installed with the defaults
     * and started when there is none. Fails (one sentence) when it cannot, and when the keeper
     * runs but its daemon keeps exiting at once.
     */
    public Ensured ensure() {
        Optional<KeeperState> now = state();
        if (now.isEmpty()) {
            install(KeeperState.Kind.SHELL, DEFAULT_INTERVAL, true);
            return Ensured.INSTALLED;
        }
        KeeperState state = now.get();
        if (state.condition() == KeeperState.Condition.FAILING) {
            throw new NodeException("the queue keeper runs but " + state.detail(), "see nvidb queue keeper logs");
        }
        if (state.up()) {
            return Ensured.ALREADY_UP;
        }
        KeeperState started = start();
        if (started.condition() == KeeperState.Condition.DOWN) {
            throw new NodeException("the queue keeper did not start: " + started.detail(), "see nvidb queue keeper logs");
        }
        return Ensured.STARTED;
    }

    /** Stops the keeper and its daemon; true when something was running. */
    public boolean stop() {
        KeeperState.Kind kind = require();
        if (kind == KeeperState.Kind.SHELL) {
            return shell.stop();
        }
        boolean wasUp = systemd.state().up();
        systemd.stop();
        return wasUp;
    }

    /** Stop, then start. */
    public KeeperState restart() {
        stop();
        return start();
    }

    /** The last {@code lines} lines of the keeper's log (systemd: its journal). */
    public Logs logs(int lines) {
        KeeperState.Kind kind = require();
        if (kind == KeeperState.Kind.SHELL) {
            return new Logs(kind, shell.log().toString(), shell.logs(lines));
        }
        return new Logs(kind, "journalctl --user -u " + KeeperFiles.UNIT, systemd.logs(lines));
    }

    private KeeperState.Kind require() {
        return installed().orElseThrow(() -> new NodeException("no queue keeper is installed for this NVIDB_HOME",
                "install one: nvidb queue keeper install --start"));
    }

    /** The launcher that runs this command (bin/nvidb names itself in NVIDB_LAUNCHER). */
    private Path launcher() {
        String named = environment.get(LAUNCHER);
        if (named == null || named.isEmpty() || !named.startsWith("/") || !Files.isExecutable(Path.of(named))) {
            throw new NodeException("cannot tell which nvidb to keep running: this command was not started by bin/nvidb"
                    + " (NVIDB_LAUNCHER is not set to an executable)", "run it as bin/nvidb queue keeper …");
        }
        return Path.of(named);
    }

    /** The Java that runs this command, so the daemon does not depend on the keeper's PATH. */
    private static Path java() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return Files.isExecutable(java) ? java : null;
    }
}
