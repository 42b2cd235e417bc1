package dev.nvidb.cli;

import dev.nvidb.output.JsonCommands;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.SshException;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.ssh.HostKeyScan;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshTarget;
import java.io.Console;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb trust NODE}: shows the host key a server presents and, once confirmed, records
 * it in known_hosts. A key that differs from the recorded one is never replaced here.
 */
@Command(name = "trust", description = "Show a server's host key fingerprint and record it in known_hosts.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb trust gpu-a                 show the fingerprint and ask",
                "  nvidb trust gpu-a --fingerprint SHA256:…   record it if it matches"})
final class TrustCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    JsonOption output;

    @Parameters(paramLabel = "NODE", description = "A configured server (its nickname or hostname).")
    String node;

    @Option(names = {"-y", "--yes"}, description = "Record the key without asking.")
    boolean yes;

    @Option(names = "--fingerprint", paramLabel = "SHA256:…",
            description = "Record the key only if it has this fingerprint (checked out of band).")
    String expected;

    TrustCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            NvidbConfig config = wiring.config();
            ServerConfig server = config.findMonitorServer(node).or(() -> config.findQueueServer(node))
                    .orElseThrow(() -> new UsageException("no server named '" + node + "' in config.yml or queue.yml",
                            "see 'nvidb ls'"));
            SshTarget target = Wiring.target(server);
            SshPool pool = wiring.sshPool();
            HostKeyScan scan = pool.scan(target);
            String where = scan.port() == 22 ? scan.host() : "[" + scan.host() + "]:" + scan.port();
            context.err().println(server.name() + " (" + where + ") presents " + scan.keyType() + " " + scan.fingerprint());
            boolean recorded = decide(scan, where);
            if (recorded) {
                pool.trust(target, scan.key());
                context.err().println("recorded in " + config.home().display(config.basic().knownHosts()));
            }
            if (output.json) {
                context.out().println(Json.write(new JsonCommands.Trusted(Json.SCHEMA_VERSION, true, server.name(), where,
                        scan.keyType(), scan.fingerprint(), scan.status().name().toLowerCase(), recorded)));
            }
            return ExitCodes.ok();
        }
    }

    private boolean decide(HostKeyScan scan, String where) {
        switch (scan.status()) {
            case KNOWN -> {
                context.err().println("already trusted: this key is in known_hosts");
                return false;
            }
            case CHANGED -> throw new SshException("host key for " + node + " (" + where + ") has CHANGED from the one"
                    + " in known_hosts; refusing to replace it", "if the change is expected, remove the old entry with"
                    + " 'ssh-keygen -R \"" + where + "\"' and run 'nvidb trust " + node + "' again");
            default -> {
                if (expected != null) {
                    if (!expected.equals(scan.fingerprint())) {
                        throw new SshException("host key fingerprint for " + node + " is " + scan.fingerprint()
                                + ", not the expected " + expected, "do not trust this host until you know why");
                    }
                    return true;
                }
                return yes || confirm();
            }
        }
    }

    private boolean confirm() {
        Console console = context.terminal() ? System.console() : null;
        if (console == null) {
            throw new UsageException("not recorded: no terminal to confirm the fingerprint on",
                    "compare it with the server's own ('ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub'), then run"
                            + " 'nvidb trust " + node + " --yes' or '--fingerprint SHA256:…'");
        }
        String answer = console.readLine("Trust this key and record it? [y/N] ");
        if (answer == null || !answer.strip().toLowerCase().startsWith("y")) {
            throw new UsageException("not recorded");
        }
        return true;
    }

}
