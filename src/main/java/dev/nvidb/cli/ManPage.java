package dev.nvidb.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * Writes the man page {@code nvidb.1} (troff) from the whole command tree, so it always says
 * what {@code --help} says. Run at build time ({@code package}, into {@code target/man}); it
 * is never loaded by a command.
 */
public final class ManPage {

    private ManPage() {
    }

    /** {@code ManPage DIR}: writes DIR/nvidb.1. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/man");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("nvidb.1"), render(), StandardCharsets.UTF_8);
    }

    /** The page, in troff with the man macros. */
    static String render() {
        Context quiet = new Context(Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                false);
        CommandLine root = Cli.create(quiet);
        StringBuilder page = new StringBuilder();
        page.append(".TH NVIDB 1 \"\" \"nvidb ").append(escape(VersionProvider.version())).append("\" \"User Commands\"\n");
        page.append(".SH NAME\nnvidb \\- ").append(escape(root.getCommandSpec().usageMessage().description()[0]))
                .append('\n');
        page.append(".SH SYNOPSIS\n");
        preformatted(page, root.getHelp().synopsis(0));
        page.append(".SH DESCRIPTION\n").append(escape("""
                nvidb shows the GPUs of this machine and of the servers in ~/.nvidb/config.yml \
                (nvidb --once [--remote]), and runs a job queue over SSH whose whole state is one SQLite \
                file (nvidb job ..., nvidb queue ...). Every command takes --json for one JSON document \
                on stdout and -h/--help for its own help; nvidb help COMMAND... prints the same.""")).append('\n');
        page.append(".SH OPTIONS\n");
        preformatted(page, root.getUsageMessage(Ansi.OFF));
        page.append(".SH COMMANDS\n");
        commands(page, root);
        page.append(".SH EXIT STATUS\n").append(escape("""
                0 ok; 1 an operation failed, a node did not answer, a waited job failed, or alerts are open; \
                2 a usage or configuration error, or job wait / submit --wait timed out with a job still \
                running; 130 interrupted; 70 an internal error.""")).append('\n');
        page.append(".SH ENVIRONMENT\n");
        item(page, "NVIDB_HOME", "where config.yml, queue.yml and queue.db live (default ~/.nvidb); it also moves"
                + " the local node's default job root to $NVIDB_HOME/jobs.");
        item(page, "NO_COLOR", "when set, no colour even on a terminal.");
        item(page, "COLUMNS", "the width tables are laid out for when stdout is not a terminal (default 80).");
        page.append(".SH FILES\n");
        item(page, "~/.nvidb/config.yml", "servers and monitor settings (nvidb add, nvidb import).");
        item(page, "~/.nvidb/queue.yml", "queue settings and queue nodes.");
        item(page, "~/.nvidb/queue.db", "the queue's state.");
        page.append(".SH SEE ALSO\nssh(1), ssh_config(5)\n");
        return page.toString();
    }

    private static void commands(StringBuilder page, CommandLine parent) {
        for (CommandLine command : parent.getSubcommands().values()) {
            if (command.getCommandSpec().usageMessage().hidden()) {
                continue;
            }
            page.append(".SS \"").append(escape(command.getCommandSpec().qualifiedName())).append("\"\n");
            preformatted(page, command.getUsageMessage(Ansi.OFF));
            commands(page, command);
        }
    }

    private static void item(StringBuilder page, String tag, String text) {
        page.append(".TP\n.B ").append(escape(tag)).append('\n').append(escape(text)).append('\n');
    }

    private static void preformatted(StringBuilder page, String text) {
        page.append(".nf\n");
        text.lines().forEach(line -> page.append(escape(line)).append('\n'));
        page.append(".fi\n");
    }

    /** Text as troff prints it literally: backslashes, hyphens and control characters at a line start. */
    static String escape(String text) {
        String escaped = text.replace("\\", "\\e").replace("-", "\\-");
        return escaped.startsWith(".") || escaped.startsWith("'") ? "\\&" + escaped : escaped;
    }
}
