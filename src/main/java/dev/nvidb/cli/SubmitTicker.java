package dev.nvidb.cli;

import dev.nvidb.daemon.SubmitTicks;
import dev.nvidb.queue.Ticking;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the background submit ticker ({@code nvidb queue tick --background}) as a process of
 * its own, detached from the terminal (its own session when {@code setsid} exists, no stdio), so
 * {@code job submit} returns as soon as the job is recorded. Only a real {@code bin/nvidb}
 * run can start one (the launcher names itself in {@code NVIDB_LAUNCHER}); elsewhere, and with
 * {@code NVIDB_SUBMIT_TICK=inline}, the submit ticks in its own process as before.
 */
final class SubmitTicker {

    static final String LAUNCHER = "NVIDB_LAUNCHER";
    static final String MODE = "NVIDB_SUBMIT_TICK";

    private SubmitTicker() {
    }

    /** Whether this run can start a ticker (a real bin/nvidb run, not told to tick inline). */
    static boolean available(Context context) {
        String launcher = context.environment().get(LAUNCHER);
        return launcher != null && !"inline".equals(context.environment().get(MODE))
                && Files.isExecutable(Path.of(launcher));
    }

    /**
     * Makes sure something places the new job soon: the queue's daemon, woken, when one runs;
     * otherwise a ticker for the queue's database. False when neither could be arranged.
     */
    static boolean ensure(Context context, Ticking ticking, boolean local) {
        String launcher = context.environment().get(LAUNCHER);
        Path database = ticking.databaseFile();
        if (ticking.wakeDaemon() || !SubmitTicks.idle(database)) {
            return true;
        }
        // A shell that starts the ticker in the background and exits at once: a JVM whose child
        // is still alive takes tenths of a second longer to exit, which a submit would pay.
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c",
                "if command -v setsid >/dev/null 2>&1; then setsid \"$0\" \"$@\" & else \"$0\" \"$@\" & fi",
                launcher, "queue", "tick", "--background", "--db-path", database.toAbsolutePath().toString()));
        if (local) {
            command.add("--local");
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(context.environment());
        try {
            // commands handed to the daemon meanwhile wait for the ticker rather than start a cold JVM beside it
            SubmitTicks.markStarting(database);
        } catch (IOException e) {
            // those commands then run on their own, as without the marker
        }
        try {
            builder.start();
            return true;
        } catch (IOException e) {
            SubmitTicks.startOver(database);
            return false;
        }
    }
}
