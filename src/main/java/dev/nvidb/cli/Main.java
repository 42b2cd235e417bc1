package dev.nvidb.cli;

import dev.nvidb.app.SubmitAnswer;
import dev.nvidb.app.HeadStart;
import dev.nvidb.app.SqliteNative;
import dev.nvidb.app.Wiring;
import dev.nvidb.daemon.Handoff;
import dev.nvidb.remote.ForwardedLine;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Process entry point: runs the command line and exits with its code. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        SqliteNative.useTheBuildsCopy();
        boolean terminal = interactive();
        if (ForwardedLine.forwardedHere(System.getenv())) {
            endWithTheSession(); // also for a line handed to the daemon: a wait there ends with the session
        }
        int handed = Handoff.attempt(args, terminal, System.out, System.err);
        if (handed >= 0) {
            System.exit(handed);
        }
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        Context context = new Context(System.getenv(), out, err, terminal, Streams.system());
        if (java.util.Arrays.asList(args).contains("--json")) {
            // JSON output is certain: let Jackson warm up while the command reads its state.
            boolean waits = HeadStart.waits(args) || java.util.Arrays.asList(args).contains("--wait");
            Thread prepare = new Thread(() -> dev.nvidb.output.Json.prepare(waits), "json-prepare");
            prepare.setDaemon(true);
            prepare.start();
        }
        SubmitAnswer.installProcessHook();
        Wiring.lastInProcess();
        int code = Cli.run(context, args);
        out.flush();
        err.flush();
        SubmitAnswer.finished(code);
        System.exit(code);
    }

    /**
     * The far side of a forwarded command ends when its SSH session does: sshd without a
     * terminal leaves a command running when the client goes away, so this process (which the
     * forwarded line {@code exec}s, a child of the session) exits 130 once its parent is gone.
     */
    private static void endWithTheSession() {
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        if (parent <= 1) {
            return;
        }
        // Our own parent pid, read afresh: it changes the moment the parent exits (a parent that
        // is a zombie not yet reaped would still look alive).
        Thread watch = new Thread(() -> {
            while (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == parent) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.exit(dev.nvidb.error.InterruptedByUser.EXIT_INTERRUPTED);
        }, "forwarded-session-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /**
     * Whether stdin and stdout are a terminal. Up to JDK 21 that is {@code System.console() != null};
     * from JDK 22 a console exists even when the streams are redirected, and
     * {@code Console.isTerminal()} (looked up by name: the build targets 17) tells.
     */
    static boolean interactive() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
