package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.config.BasicConfig;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonInfo;
import dev.nvidb.output.JsonInfo.JsonFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nvidb info}: configuration files, SSH settings and the servers they define. */
@Command(name = "info", description = "Show where nvidb keeps its configuration and which servers it knows.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb info",
                "  nvidb info --json"})
final class InfoCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    JsonOption output;

    InfoCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            NvidbHome home = config.home();
            BasicConfig basic = config.basic();
            JsonInfo info = new JsonInfo(Json.SCHEMA_VERSION, true, VersionProvider.version(), home.display(home.dir()),
                    file(home, home.configYml()), file(home, home.queueYml()), file(home, basic.sshConfig()),
                    file(home, basic.knownHosts()), basic.hostKeyPolicy().key(), basic.connectTimeout(),
                    basic.authTimeout(), basic.commandTimeout(), basic.remote(), names(config.monitorServers()),
                    names(config.queueServers()), config.findRemote().map(RemoteConfig::host).orElse(null),
                    config.warnings());
            if (output.json) {
                context.out().println(Json.write(info));
            } else {
                print(context.out(), info);
            }
            return ExitCodes.ok();
        }
    }

    private static void print(PrintWriter out, JsonInfo info) {
        out.println("nvidb " + info.version());
        out.println("home          " + info.home());
        out.println("config        " + describe(info.configFile()));
        out.println("queue config  " + describe(info.queueFile()));
        out.println("ssh config    " + describe(info.sshConfig()));
        out.println("known hosts   " + describe(info.knownHosts()) + "  (policy " + info.hostKeyPolicy() + ")");
        out.println("timeouts      connect " + info.connectTimeoutS() + " s, auth " + info.authTimeoutS()
                + " s, command " + info.commandTimeoutS() + " s");
        out.println("monitor       " + servers(info.monitorServers()) + (info.remoteByDefault() ? "  (remote by default)" : ""));
        out.println("queue         " + servers(info.queueServers()));
        if (info.forwardTo() != null) {
            out.println("remote        queue.yml names " + info.forwardTo() + ", but forwarding is not built yet:"
                    + " queue commands refuse to run unless given --local");
        }
    }

    private static String servers(List<String> names) {
        return names.isEmpty() ? "this machine only (no servers configured)"
                : names.size() + (names.size() == 1 ? " server: " : " servers: ") + String.join(", ", names);
    }

    private static String describe(JsonFile file) {
        return file.path() + (file.exists() ? "" : "  (missing)");
    }

    private static JsonFile file(NvidbHome home, Path path) {
        return new JsonFile(home.display(path), Files.exists(path));
    }

    private static List<String> names(List<ServerConfig> servers) {
        return servers.stream().map(ServerConfig::name).toList();
    }
}
