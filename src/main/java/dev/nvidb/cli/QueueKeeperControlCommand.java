package dev.nvidb.cli;

import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.keeper.Keeper;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.KeeperText;
import dev.nvidb.output.Printable;
import java.time.ZoneId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nvidb queue keeper start|ensure|stop|restart}: the installed keeper, driven. */
final class QueueKeeperControlCommand {

    private QueueKeeperControlCommand() {
    }

    private static void print(Context context, boolean json, String action, KeeperState state) {
        if (json) {
            context.out().println(Json.write(JsonKeeper.Action.of(action, state)));
        } else {
            context.out().println(KeeperText.line(state, ZoneId.systemDefault(), Terminal.style(context, false)));
        }
    }

    /** {@code start}: idempotent: a keeper that runs is left alone. */
    @Command(name = "start", description = "Start the installed keeper (nothing happens when it runs).",
            footerHeading = "%nExamples:%n", footer = {"  nvidb queue keeper start"})
    static final class Start extends ContextCall {
        @Mixin
        JsonOption options;

        @Override
        public Integer call() {
            Keeper keeper = QueueKeeperCommand.keeper(context);
            boolean wasUp = keeper.state().map(state -> state.condition() != KeeperState.Condition.DOWN).orElse(false);
            print(context, options.json, wasUp ? "already_running" : "started", keeper.start());
            return ExitCodes.ok();
        }
    }

    /** {@code restart}: stop, then start. */
    @Command(name = "restart", description = "Stop the keeper and its daemon, then start them again.",
            footerHeading = "%nExamples:%n", footer = {"  nvidb queue keeper restart"})
    static final class Restart extends ContextCall {
        @Mixin
        JsonOption options;

        @Override
        public Integer call() {
            print(context, options.json, "restarted", QueueKeeperCommand.keeper(context).restart());
            return ExitCodes.ok();
        }
    }

    /** {@code stop}: the supervisor and the daemon's whole process group. */
    @Command(name = "stop", description = "Stop the keeper and its daemon (TERM, KILL after 10 s); jobs keep running.",
            footerHeading = "%nExamples:%n", footer = {"  nvidb queue keeper stop"})
    static final class Stop extends ContextCall {
        @Mixin
        JsonOption options;

        @Override
        public Integer call() {
            boolean stopped = QueueKeeperCommand.keeper(context).stop();
            return answer(options.json, () -> new JsonKeeper.Stopped(Json.SCHEMA_VERSION, true, stopped),
                    () -> context.out().println(stopped ? "keeper stopped" : "keeper was not running"));
        }
    }

    /**
     * {@code ensure}: make the queue move if it does not. Silent (and fast: a file read) when a
     * keeper is up; starts the installed keeper, or installs and starts the shell keeper, saying
     * so in one line on stderr; one line on stderr and exit 1 when it cannot. Clients run it on
     * the queue host before every forwarded command.
     */
    @Command(name = "ensure", description = "Start a keeper unless one is up (installing the shell keeper if none is).",
            footerHeading = "%nExamples:%n", footer = {"  nvidb queue keeper ensure"})
    static final class Ensure extends ContextCall {
        @Mixin
        JsonOption options;

        @Override
        public Integer call() {
            Keeper keeper;
            Keeper.Ensured done;
            try {
                keeper = QueueKeeperCommand.keeper(context);
                done = keeper.ensure();
            } catch (InterruptedByUser e) {
                throw e;
            } catch (NvidbException e) {
                if (options.json) {
                    throw e;
                }
                context.err().println("nvidb: queue keeper: " + Printable.of(e.getMessage())
                        + e.hint().map(hint -> " (" + Printable.of(hint) + ")").orElse(""));
                return ExitCodes.of(e);
            }
            switch (done) {
                case STARTED -> context.err().println("nvidb: the queue keeper was down; started it");
                case INSTALLED -> context.err().println("nvidb: no queue keeper was installed; installed the shell keeper"
                        + " and started it (nvidb queue keeper status)");
                case ALREADY_UP -> { }
            }
            if (options.json) {
                context.out().println(Json.write(JsonKeeper.Action.of(done.name().toLowerCase(java.util.Locale.ROOT),
                        keeper.state().orElse(null))));
            }
            return ExitCodes.ok();
        }
    }
}
