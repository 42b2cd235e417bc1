package dev.nvidb.cli;

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

    /** Makes sure a ticker runs for the queue's database; false when the caller must tick itself. */
    static boolean ensure(Context context, Ticking ticking, boolean local) {
        String launcher = context.environment().get(LAUNCHER);
        if (launcher == null || "inline".equals(context.environment().get(MODE))
                || !Files.isExecutable(Path.of(launcher))) {
            return false;
        }
        if (!ticking.submitTickerIdle()) {
            return true;
        }
        Path database = ticking.databaseFile();
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.addAll(List.of(launcher, "queue", "tick", "--background", "--db-path",
                database.toAbsolutePath().toString()));
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
            builder.start();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
