package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.NvidbException;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonServers;
import dev.nvidb.output.JsonServers.JsonResolution;
import dev.nvidb.output.JsonServers.JsonServer;
import dev.nvidb.ssh.ResolvedTarget;
import dev.nvidb.ssh.TargetResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb ls}: the configured servers, one per line. */
@Command(name = "ls", description = "List the configured servers.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb ls",
                "  nvidb ls --json"})
final class LsCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    JsonOption output;

    @Option(names = "--detail", description = "Also show what each server resolves to through ~/.ssh/config.")
    boolean detail;

    LsCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            TargetResolver resolver = detail ? new TargetResolver(wiring.sshSettings()) : null;
            List<JsonServer> servers = new ArrayList<>();
            List<NvidbException> failures = new ArrayList<>();
            for (ServerConfig server : config.monitorServers()) {
                servers.add(describe(server, resolver, failures));
            }
            if (output.json) {
                context.out().println(Json.write(JsonServers.of(servers)));
            } else if (servers.isEmpty()) {
                context.err().println("no servers configured; add one with 'nvidb add' or 'nvidb import'");
            } else {
                servers.forEach(server -> context.out().println(Printable.of(line(server))));
            }
            // a server that cannot be resolved is a configuration problem: each one line on stderr, as any failure
            failures.forEach(failure -> Cli.report(context, false, failure.type(), failure.getMessage(),
                    failure.hint().orElse(null)));
            return failures.isEmpty() ? ExitCodes.ok() : ExitCodes.of(failures.get(0));
        }
    }

    private static JsonServer describe(ServerConfig server, TargetResolver resolver, List<NvidbException> failures) {
        String resolved = null;
        List<String> identities = null;
        String error = null;
        JsonResolution resolution = null;
        if (resolver != null) {
            try {
                ResolvedTarget target = resolver.resolve(Wiring.target(server));
                resolved = target.describe();
                identities = paths(target.identityFiles());
                resolution = resolution(target);
            } catch (NvidbException e) {
                error = e.getMessage();
                failures.add(e);
            }
        }
        return new JsonServer(server.name(), server.hostname(), server.port(), server.username(), server.auth().key(),
                server.identityfile() == null ? null : server.identityfile().toString(), server.proxyjump(),
                server.gpus(), resolved, identities, error, resolution);
    }

    private static JsonResolution resolution(ResolvedTarget target) {
        return new JsonResolution(target.hostname(), target.port(), target.username(), paths(target.identityFiles()),
                paths(target.certificateFiles()), target.identitiesOnly(), target.proxyJump(),
                target.jumps().stream().map(LsCommand::resolution).toList());
    }

    private static List<String> paths(List<Path> paths) {
        return paths.stream().map(Path::toString).toList();
    }

    private static String line(JsonServer server) {
        StringBuilder text = new StringBuilder(String.format("%-16s %s", server.name(), target(server)));
        if (server.proxyjump() != null) {
            text.append("  via ").append(server.proxyjump());
        }
        if (server.gpus() != null) {
            text.append("  gpus ").append(server.gpus());
        }
        if (server.resolved() != null) {
            text.append("\n    resolves to ").append(server.resolved());
            text.append("\n    keys ").append(server.identityFiles().isEmpty() ? "(agent only)"
                    : String.join(", ", server.identityFiles()));
        }
        if (server.resolveError() != null) {
            text.append("\n    cannot resolve: ").append(server.resolveError());
        }
        return text.toString();
    }

    private static String target(JsonServer server) {
        String user = server.username() == null ? "" : server.username() + "@";
        String port = server.port() == null ? "" : ":" + server.port();
        return user + server.hostname() + port + "  auth " + server.auth();
    }
}
