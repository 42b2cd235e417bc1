package dev.nvidb.cli;

import dev.nvidb.config.NvidbHome;
import dev.nvidb.keeper.Keeper;
import picocli.CommandLine.Command;

/** {@code nvidb queue keeper …}: what keeps {@code queue daemon} running (docs in README "Keeper"). */
@Command(name = "keeper", description = "Keep the queue daemon running: a shell supervisor or a systemd user unit.",
        synopsisSubcommandLabel = "COMMAND", mixinStandardHelpOptions = true,
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue keeper install --start   # write ~/.nvidb/queue-keeper.sh, run it",
                "  nvidb queue keeper status            # non-zero while nothing keeps it going",
                "  nvidb queue keeper logs -n 50",
                "  nvidb queue keeper install --systemd --start"})
final class QueueKeeperCommand extends CommandGroup {

    /** The keeper of the NVIDB_HOME this command runs with. */
    static Keeper keeper(Context context) {
        return new Keeper(NvidbHome.fromEnvironment(context.environment(), System.getProperty("user.home")),
                context.environment());
    }

    /** An interval in seconds as the daemon's {@code --interval} takes it: "15", "0.5". */
    static String interval(Double seconds) {
        if (seconds == null) {
            return Keeper.DEFAULT_INTERVAL;
        }
        return java.math.BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
    }
}
