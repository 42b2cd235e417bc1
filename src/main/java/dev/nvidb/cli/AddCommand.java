package dev.nvidb.cli;

import dev.nvidb.app.QueueNodesNotice;
import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.config.AddedServers;
import dev.nvidb.config.AuthMethod;
import dev.nvidb.config.ConfigWriter;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.UsageException;
import java.io.Console;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb add}: appends one server to config.yml. Without {@code --hostname} it asks for
 * each field on the terminal; with flags it asks nothing, for scripts.
 */
@Command(name = "add", description = "Add a server to config.yml (prompts unless a host is given).",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb add                                   asks for each field",
                "  nvidb add gpu-a                             the same as --hostname gpu-a",
                "  nvidb add --hostname gpu-a.lab --username me --gpus 0,1",
                "  nvidb add --hostname 10.0.0.7 --nickname gpu-b --proxyjump bastion"})
final class AddCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Option(names = "--hostname", description = "Host name, address or ~/.ssh/config alias.")
    String hostname;
    @Parameters(index = "0", arity = "0..1", paramLabel = "HOST", description = "The same as --hostname HOST.")
    String host;
    @Option(names = "--port", description = "SSH port (default: from ~/.ssh/config, else 22).")
    Integer port;
    @Option(names = "--username", description = "Login name (default: from ~/.ssh/config, else yours).")
    String username;
    @Option(names = "--nickname", description = "Name shown for this server.")
    String nickname;
    @Option(names = "--auth", description = "auto | key | password | agent (default auto).")
    String auth;
    @Option(names = "--identityfile", description = "Private key file.")
    String identityfile;
    @Option(names = "--proxyjump", description = "Jump host or comma-separated chain.")
    String proxyjump;
    @Option(names = "--gpus", split = ",", description = "GPU indices open to queue placement, e.g. 0,1.")
    List<Integer> gpus;

    @Override
    public Integer call() {
        if (host != null) {
            if (hostname != null && !hostname.equals(host)) {
                throw new UsageException("nvidb add got two hosts: '" + host + "' and --hostname '" + hostname + "'",
                        "give one: nvidb add HOST, or nvidb add --hostname HOST");
            }
            hostname = host;
        }
        try (Wiring wiring = new Wiring(context)) {
            NvidbHome home = wiring.home();
            NvidbConfig before = wiring.config();
            if (hostname == null) {
                askAll();
            }
            ServerConfig server = server(home);
            AddedServers result = new ConfigWriter(home).addServers(home.configYml(), List.of(server));
            if (result.added().isEmpty()) {
                throw new UsageException("a server named '" + server.name() + "' is already configured in "
                        + home.display(home.configYml()), "choose another --nickname, or edit the file");
            }
            context.err().println("added " + server.name() + " to " + home.display(home.configYml())
                    + "; check it with 'nvidb trust " + server.name() + "' and 'nvidb --once --remote'");
            QueueNodesNotice.afterAdding(context, before);
            if (output.json) {
                context.out().println(dev.nvidb.output.Json.write(new JsonCommands.Added(dev.nvidb.output.Json.SCHEMA_VERSION, true, server.name())));
            }
            return ExitCodes.ok();
        }
    }

    private ServerConfig server(NvidbHome home) {
        if (hostname == null || hostname.isBlank()) {
            throw new UsageException("a server needs a hostname", "nvidb add HOST, or nvidb add --hostname HOST");
        }
        if (port != null && (port < 1 || port > 65535)) {
            throw new UsageException("--port must be between 1 and 65535, got " + port);
        }
        AuthMethod method = auth == null ? AuthMethod.AUTO : AuthMethod.parse(auth).orElseThrow(() ->
                new UsageException("--auth must be one of " + String.join(", ", AuthMethod.keys()) + ", got '" + auth + "'"));
        if (gpus != null && gpus.stream().anyMatch(index -> index < 0)) {
            throw new UsageException("--gpus takes GPU indices (0 or more), got " + gpus);
        }
        Path key = identityfile == null || identityfile.isBlank() ? null : home.expand(identityfile);
        return new ServerConfig(hostname.strip(), port, blank(username), blank(nickname), method, key, null,
                blank(proxyjump), gpus);
    }

    private void askAll() {
        Console console = context.terminal() ? System.console() : null;
        if (console == null) {
            throw new UsageException("nvidb add needs --hostname when there is no terminal to ask on",
                    "nvidb add HOST [--port N] [--username U] [--nickname N] [--identityfile F]");
        }
        hostname = ask(console, "Hostname or ~/.ssh/config alias", null);
        String portText = ask(console, "Port", "from ssh config, else 22");
        try {
            port = portText == null ? null : Integer.valueOf(portText);
        } catch (NumberFormatException e) {
            throw new UsageException("port must be a number, got '" + portText + "'");
        }
        username = ask(console, "Username", "from ssh config, else yours");
        nickname = ask(console, "Nickname", "none");
        auth = ask(console, "Auth (auto, key, password, agent)", "auto");
        identityfile = ask(console, "Identity file", "ssh config or ~/.ssh/id_*");
        proxyjump = ask(console, "ProxyJump", "none");
    }

    private static String ask(Console console, String label, String fallback) {
        String answer = console.readLine("%s%s: ", label, fallback == null ? "" : " [" + fallback + "]");
        return blank(answer);
    }

    private static String blank(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
