package dev.nvidb.cli;

import dev.nvidb.keeper.Keeper;
import dev.nvidb.keeper.KeeperState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonKeeper;
import dev.nvidb.output.KeeperText;
import java.time.ZoneId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nvidb queue keeper install [--start] [--systemd] [--interval S]}: writes the shell
 * supervisor ({@code $NVIDB_HOME/queue-keeper.sh}) or the systemd user unit, replacing a keeper
 * of the other kind, and with {@code --start} starts it.
 */
@Command(name = "install", description = "Write the keeper (the shell supervisor, or with --systemd a user unit).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue keeper install --start",
                "  nvidb queue keeper install --start --interval 5",
                "  nvidb queue keeper install --systemd --start && loginctl enable-linger \"$USER\""})
final class QueueKeeperInstallCommand extends ContextCall {

    static final String LINGER = "to start it at boot before you log in, the host must let your user manager linger:"
            + " loginctl enable-linger \"$USER\" (may need an administrator)";

    @Mixin
    JsonOption options;

    @Option(names = "--start", description = "Start it now (restart it if it runs, so the new file applies).")
    boolean start;

    @Option(names = "--systemd", description = "Write the user unit ~/.config/systemd/user/nvidb-queue.service instead.")
    boolean systemd;

    @Option(names = "--interval", paramLabel = "S", converter = NumberOption.Interval.class,
            description = "Seconds between the daemon's passes (default: 15).")
    Double interval;

    @Override
    public Integer call() {
        Keeper.Installed done = QueueKeeperCommand.keeper(context).install(
                systemd ? KeeperState.Kind.SYSTEMD : KeeperState.Kind.SHELL, QueueKeeperCommand.interval(interval), start);
        String linger = systemd ? LINGER : null;
        if (options.json) {
            context.out().println(Json.write(new JsonKeeper.Installed(Json.SCHEMA_VERSION, true, done.kind().label(),
                    done.file().toString(), done.replaced() == null ? null : done.replaced().label(), done.started() != null,
                    JsonKeeper.of(done.started()), linger)));
            return ExitCodes.ok();
        }
        context.out().print(KeeperText.installed(done, linger, ZoneId.systemDefault(), Terminal.style(context, false)));
        return ExitCodes.ok();
    }
}
