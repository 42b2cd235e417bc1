package dev.nvidb.cli;

import dev.nvidb.app.QueueNodesNotice;
import dev.nvidb.app.ServerListing;
import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.config.AddedServers;
import dev.nvidb.config.ConfigWriter;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb import [path]}: copies concrete hosts from an OpenSSH client config into
 * config.yml (HostName, User, Port, IdentityFile, ProxyJump), skipping wildcard and negated
 * patterns and hosts already configured.
 */
@Command(name = "import", description = "Import servers from an ssh config file (default ~/.ssh/config).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb import                      hosts from ~/.ssh/config",
                "  nvidb import ~/work/ssh_config"})
final class ImportCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Parameters(arity = "0..1", paramLabel = "PATH", description = "ssh config to read (default: basic.ssh_config).")
    String path;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            NvidbHome home = config.home();
            Path source = path == null ? config.basic().sshConfig() : home.expand(path);
            if (!Files.isRegularFile(source)) {
                throw new UsageException("no ssh config at " + home.display(source), "nvidb import PATH");
            }
            List<ServerConfig> servers = ServerListing.imported(home, source);
            AddedServers result = servers.isEmpty() ? new AddedServers(List.of(), List.of())
                    : new ConfigWriter(home).addServers(home.configYml(), servers);
            report(home, source, result);
            if (!result.added().isEmpty()) {
                QueueNodesNotice.afterAdding(context, config);
            }
            return ExitCodes.ok();
        }
    }

    private void report(NvidbHome home, Path source, AddedServers result) {
        List<String> added = result.added().stream().map(ServerConfig::name).toList();
        List<String> skipped = result.skipped().stream().map(ServerConfig::name).toList();
        if (output.json) {
            context.out().println(Json.write(new JsonCommands.Imported(Json.SCHEMA_VERSION, true, home.display(source), added, skipped)));
            return;
        }
        for (String name : added) {
            context.out().println("imported " + name);
        }
        String summary = "imported " + added.size() + (added.size() == 1 ? " server" : " servers") + " from "
                + home.display(source) + " into " + home.display(home.configYml());
        if (!skipped.isEmpty()) {
            summary += "; skipped " + skipped.size() + " already configured (" + String.join(", ", skipped) + ")";
        }
        context.err().println(summary);
    }
}
