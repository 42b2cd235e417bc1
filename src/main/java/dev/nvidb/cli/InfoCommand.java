package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nvidb info}: configuration files, SSH settings and the servers they define. */
@Command(name = "info", description = "Show where nvidb keeps its configuration and which servers it knows.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb info",
                "  nvidb info --json"})
final class InfoCommand extends ContextCall {

    @Mixin
    JsonOption output;

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            JsonInfo info = JsonInfo.of(wiring.config(), VersionProvider.version());
            context.out().print(output.json ? Json.write(info) + System.lineSeparator() : info.text());
            return ExitCodes.ok();
        }
    }
}
