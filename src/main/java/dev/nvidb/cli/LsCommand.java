package dev.nvidb.cli;

import dev.nvidb.app.ServerListing;
import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.NvidbException;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonServers;
import dev.nvidb.output.JsonServers.JsonServer;
import dev.nvidb.ssh.TargetResolver;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb ls}: the configured servers, one per line. */
@Command(name = "ls", description = "List the configured servers.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb ls",
                "  nvidb ls --json"})
final class LsCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Option(names = "--detail", description = "Also show what each server resolves to through ~/.ssh/config.")
    boolean detail;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            TargetResolver resolver = detail ? new TargetResolver(wiring.sshSettings()) : null;
            List<JsonServer> servers = new ArrayList<>();
            List<NvidbException> failures = new ArrayList<>();
            for (ServerConfig server : config.monitorServers()) {
                servers.add(ServerListing.describe(server, resolver, failures));
            }
            if (output.json) {
                context.out().println(Json.write(JsonServers.of(servers)));
            } else if (servers.isEmpty()) {
                context.err().println("no servers configured; add one with 'nvidb add' or 'nvidb import'");
            } else {
                servers.forEach(server -> context.out().println(Printable.of(server.text())));
            }
            // a server that cannot be resolved is a configuration problem: each one line on stderr, as any failure
            failures.forEach(failure -> Cli.report(context, false, failure.type(), failure.getMessage(),
                    failure.hint().orElse(null)));
            return failures.isEmpty() ? ExitCodes.ok() : ExitCodes.of(failures.get(0));
        }
    }
}
