package dev.nvidb.cli;

import dev.nvidb.app.SubmitAnswer;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.daemon.HandedRequests;
import dev.nvidb.remote.TerminalControl;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What the daemon (and a lingering submit ticker) runs the requests handed to it with
 * ({@link HandedRequests} reads them off the socket and answers): a client's words are parsed
 * by the command tree into the typed request they make (or refused), and each request runs
 * through {@link Cli} as the command it came from, with the client's environment, no terminal
 * and no stdin.
 */
final class HandoffService implements HandedRequests.Runner {

    private HandoffService() {
    }

    /**
     * Serves requests from now on, first running one harmless line ({@code job ls --json
     * --no-tick -n 1}, output dropped) on a background thread of low priority: the first request
     * handed over then finds the parser, the configuration reader, the database layer and the
     * JSON writer loaded and run once, instead of paying for them (about a quarter of a second).
     */
    static HandedRequests warmedUp(Map<String, String> environment) {
        Thread warm = new Thread(() -> {
            PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
            try {
                SubmitAnswer.handedOff(() -> Cli.run(new Context(environment, none, none, false),
                        "job", "ls", "--json", "--no-tick", "-n", "1"));
            } catch (RuntimeException e) {
                // only a warm-up
            }
        }, "handoff-warm-up");
        warm.setDaemon(true);
        warm.setPriority(Thread.MIN_PRIORITY);
        warm.start();
        return new HandedRequests(new HandoffService());
    }

    @Override
    public DaemonRequest accept(Map<String, String> environment, String directory, DaemonRequest request) {
        PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
        return Cli.accepted(new Context(environment, none, none, false), directory, request);
    }

    @Override
    public int run(Map<String, String> environment, DaemonRequest request, OutputStream out, OutputStream err) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        Context context = new Context(environment, outWriter, errWriter, false,
                new Streams(new ByteArrayInputStream(new byte[0]), out, err, TerminalControl.NONE));
        int code;
        try {
            code = SubmitAnswer.handedOff(() -> Cli.runHanded(context, request));
        } catch (RuntimeException | Error e) {
            errWriter.println("nvidb: internal error: " + e);
            code = ExitCodes.EXIT_INTERNAL;
        }
        outWriter.flush();
        errWriter.flush();
        return code;
    }
}
