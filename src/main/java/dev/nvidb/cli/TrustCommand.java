package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.UsageException;
import dev.nvidb.output.Json;
import dev.nvidb.ssh.HostKeyScan;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshTarget;
import dev.nvidb.ssh.TrustDecision;
import java.io.Console;
import java.util.Optional;
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
final class TrustCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Parameters(paramLabel = "NODE", description = "A configured server (its nickname or hostname).")
    String node;

    @Option(names = {"-y", "--yes"}, description = "Record the key without asking.")
    boolean yes;

    @Option(names = "--fingerprint", paramLabel = "SHA256:…",
            description = "Record the key only if it has this fingerprint (checked out of band).")
    String expected;

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
            if (scan.status() == HostKeyScan.Status.KNOWN) {
                context.err().println("already trusted: this key is in known_hosts");
            }
            boolean recorded = TrustDecision.record(scan, node, where, expected, yes, this::confirm);
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

    /** Asks on the terminal; empty when there is none. */
    private Optional<Boolean> confirm() {
        Console console = context.terminal() ? System.console() : null;
        if (console == null) {
            return Optional.empty();
        }
        String answer = console.readLine("Trust this key and record it? [y/N] ");
        return Optional.of(answer != null && answer.strip().toLowerCase().startsWith("y"));
    }
}
