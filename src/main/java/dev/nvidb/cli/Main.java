package dev.nvidb.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Process entry point: runs the command line and exits with its code. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        Context context = new Context(System.getenv(), out, err, System.console() != null);
        if (java.util.Arrays.asList(args).contains("--json")) {
            // JSON output is certain: let Jackson warm up while the command reads its state.
            Thread prepare = new Thread(dev.nvidb.output.Json::prepare, "json-prepare");
            prepare.setDaemon(true);
            prepare.start();
        }
        int code = Cli.run(context, args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
