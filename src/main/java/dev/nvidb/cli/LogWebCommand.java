package dev.nvidb.cli;

import picocli.CommandLine.Command;

/**
 * {@code nvidb log web}: the seed's old spelling of {@code nvidb web}, kept so scripts written for
 * it still work; it says so on stderr and serves the same dashboard with the same options.
 */
@Command(name = "web", description = "Deprecated spelling of 'nvidb web'; serves the same dashboard.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb web            the same, and the spelling to use"})
final class LogWebCommand extends WebCommand {

    @Override
    public Integer call() {
        context.err().println("nvidb: 'nvidb log web' is deprecated; use 'nvidb web' (same options)");
        context.err().flush();
        return super.call();
    }
}
