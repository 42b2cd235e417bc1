package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.error.UsageException;
import dev.nvidb.queue.Operations;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Runs a command line that carries {@code --op-id}: the request's digest (the command words and
 * arguments as typed, less the op id, {@code NVIDB_GROUP}, and the bytes of a {@code --script}
 * file) is looked up in the queue; a
 * recorded answer is printed again with its exit code, another request under the id is a usage
 * error, and a new (or never answered) operation runs with its stdout recorded. An answer is
 * recorded for exit 0 and 1; a usage error (2: nothing changed) frees the id again.
 */
final class OperationRun {

    private OperationRun() {
    }

    /** Whether the command words carry {@code --op-id} (before any {@code --}). */
    static boolean mentioned(String[] args) {
        for (String arg : args) {
            if (arg.equals("--")) {
                return false;
            }
            if (arg.equals("--op-id") || arg.startsWith("--op-id=")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code args} under its operation id. {@code run} executes the line against the context
     * it is given (whose stdout is recorded) and returns the exit code.
     */
    static int run(Context context, String[] args, ToIntFunction<Context> run,
                   java.util.function.Function<Context, CommandLine> tree) {
        StringWriter recorded = new StringWriter();
        Context teed = new Context(context.environment(), new PrintWriter(new Tee(context.out(), recorded), true),
                context.err(), context.terminal(), context.streams());
        ParseResult parsed;
        try {
            parsed = tree.apply(teed).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return run.applyAsInt(context); // reported as any usage error; nothing is recorded
        }
        ParseResult leaf = parsed;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        String opId = leaf.matchedOptionValue("--op-id", null);
        QueueOptions options = queueOptions(leaf.commandSpec());
        if (opId == null || options == null) {
            return run.applyAsInt(context);
        }
        Operations.check(opId);
        String command = "nvidb " + String.join(" ", withoutOpId(args)); // the line as typed (it names its command)
        String script = leaf.matchedOptionValue("--script", null);
        // A --script names a file: what it holds now is part of the request, so a retry after the
        // file was edited is a different request, not a replay.
        String digest = digest(leaf.commandSpec().qualifiedName(), withoutOpId(args), context.environment().get("NVIDB_GROUP"),
                script == null ? null : fileDigest(NvidbHome.fromEnvironment(context.environment(), System.getProperty("user.home")).expand(script)));
        Operations.Answer answer = Operations.once(step -> {
            try (Wiring wiring = new Wiring(context)) {
                step.accept(wiring.queue(options).operations());
            }
        }, opId, digest, command.strip(), () -> {
            int code = run.applyAsInt(teed);
            teed.out().flush();
            return new Operations.Answer(recorded.toString(), code, false);
        });
        if (answer.replayed()) {
            context.out().print(answer.stdout());
            context.out().flush();
            context.err().println("nvidb: operation " + opId + " was already done; this is its answer again");
            context.err().flush();
        }
        return answer.exitCode();
    }

    private static QueueOptions queueOptions(CommandLine.Model.CommandSpec spec) {
        for (CommandLine.Model.CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof QueueOptions options) {
                return options;
            }
        }
        return null;
    }

    /** The arguments less {@code --op-id ID} / {@code --op-id=ID} (before {@code --}). */
    static List<String> withoutOpId(String[] args) {
        List<String> kept = new ArrayList<>();
        boolean command = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!command && arg.equals("--op-id")) {
                i++;
            } else if (!command && arg.startsWith("--op-id=")) {
                continue;
            } else {
                command |= arg.equals("--");
                kept.add(arg);
            }
        }
        return kept;
    }

    /** SHA-256 of the command, each argument and NVIDB_GROUP, each length-prefixed: no two requests share one. */
    static String digest(String command, List<String> args, String group) {
        return digest(command, args, group, null);
    }

    /** The request's digest; {@code script} is the digest of a {@code --script} file's bytes, or null. */
    static String digest(String command, List<String> args, String group, String script) {
        List<String> parts = new ArrayList<>();
        parts.add(command);
        parts.add(group == null ? "" : "group=" + group);
        parts.addAll(args);
        if (script != null) {
            parts.add("script=" + script);
        }
        return Operations.digest(parts);
    }

    /** SHA-256 of a file's bytes; "unreadable" when it cannot be read (the submit then says why). */
    private static String fileDigest(java.nio.file.Path file) {
        try {
            return Operations.digest(java.nio.file.Files.readAllBytes(file));
        } catch (java.io.IOException e) {
            return "unreadable";
        }
    }

    /** Writes to the command's stdout and to the record of the answer. */
    private static final class Tee extends Writer {
        private final Writer out;
        private final Writer copy;

        Tee(Writer out, Writer copy) {
            this.out = out;
            this.copy = copy;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws java.io.IOException {
            out.write(buffer, offset, length);
            copy.write(buffer, offset, length);
        }

        @Override
        public void flush() throws java.io.IOException {
            out.flush();
        }

        @Override
        public void close() throws java.io.IOException {
            flush();
        }
    }

    static UsageException notAWrite(String command) {
        return new UsageException("--op-id is for commands that change the queue, not " + command);
    }
}
