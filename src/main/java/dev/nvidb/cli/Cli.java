package dev.nvidb.cli;

import dev.nvidb.app.Forwarding;
import dev.nvidb.app.ArgumentText;
import dev.nvidb.app.HeadStart;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.output.Printable;
import dev.nvidb.error.InterruptedByUser;
import dev.nvidb.error.NvidbException;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonError;
import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Builds the picocli command tree and installs the one error handler, with {@link ExitCodes}:
 * an {@link NvidbException} becomes {@code nvidb: message} plus a hint on stderr (or the JSON
 * error envelope on stdout with {@code --json}); anything else is an internal error. A stack
 * trace is printed only with {@code --verbose}.
 */
public final class Cli {

    private Cli() {
    }

    /**
     * Runs one command line in-process and returns its exit code. A command whose thread was
     * interrupted exits 130 however it ended (a lower layer may have turned the interrupt into
     * a failure of its own, or into data, after restoring the thread's flag).
     */
    public static int run(Context context, String... given) {
        boolean json = Arrays.stream(given).takeWhile(arg -> !arg.equals("--")).anyMatch("--json"::equals);
        try {
            java.util.Optional<Integer> forwarded = Forwarding.attempt(context, context.out(), context.streams(),
                    signal -> report(context, json, "ssh", signal, null), given);
            if (forwarded.isPresent()) {
                return forwarded.get();
            }
        } catch (NvidbException e) {
            if (ExitCodes.outcome(e) == ExitCodes.Outcome.INTERRUPTED) {
                Thread.currentThread().interrupt();
            }
            report(context, json, e.type(), e.getMessage(), e.hint().orElse(null));
            return ExitCodes.of(e);
        }
        if (OperationRun.mentioned(given)) {
            try {
                return OperationRun.run(context, sharedOptionsAfterCommand(
                        CommandTree.forArgs(new ContextFactory(context), given), given), teed -> runLine(teed, given),
                        teed -> configure(teed, CommandTree.forArgs(new ContextFactory(teed), given)));
            } catch (NvidbException e) {
                report(context, Arrays.asList(given).contains("--json"), e.type(), e.getMessage(), e.hint().orElse(null));
                return ExitCodes.of(e);
            }
        }
        return runLine(context, given);
    }

    /** Runs one command line (forwarding already decided). */
    private static int runLine(Context context, String... given) {
        try (HeadStart headStart = HeadStart.begin(context, given)) {
            return runLine(context, headStart, given);
        }
    }

    private static int runLine(Context context, HeadStart headStart, String... given) {
        CommandLine commandLine = configure(context, CommandTree.forArgs(new ContextFactory(context, headStart), given));
        String[] args = sharedOptionsAfterCommand(commandLine, given);
        String notText = ArgumentText.problem(args);
        if (notText != null) {
            report(context, Arrays.asList(args).contains("--json"), "usage", notText,
                    "nvidb keeps arguments exactly or refuses them: pass UTF-8 text in a UTF-8 locale"
                    + " (bin/nvidb sets one), or put the bytes in a --script file");
            return ExitCodes.of(ExitCodes.Outcome.USAGE);
        }
        int code = commandLine.execute(args);
        int interrupted = ExitCodes.of(ExitCodes.Outcome.INTERRUPTED);
        if (code != interrupted && Thread.currentThread().isInterrupted()) {
            report(context, false, "interrupted", "interrupted", null);
            return interrupted;
        }
        return code;
    }

    /**
     * What the daemon runs for the words {@code given} of a client in {@code directory}, as the
     * line's own parser reads them: a {@link HandedCommand}'s typed request, the words of a
     * {@link HandedCommand.AsLine} command, or null: a line that does not parse, asks for help,
     * names another database ({@code --db-path}) or is not text runs in the client, which
     * reports its trouble as ever.
     */
    static DaemonRequest handedRequest(Context context, String[] given, String directory) {
        if (ArgumentText.problem(given) != null || Arrays.stream(given).anyMatch(arg -> arg.startsWith("@"))) {
            return null; // picocli would read an argument file in this process's directory, not the client's
        }
        try {
            CommandLine root = CommandTree.forArgs(new ContextFactory(context), given);
            root.setCaseInsensitiveEnumValuesAllowed(true);
            ParseResult parsed = root.parseArgs(sharedOptionsAfterCommand(root, given));
            ParseResult leaf = parsed;
            for (ParseResult level = parsed; level != null; level = level.subcommand()) {
                if (level.isUsageHelpRequested() || level.isVersionHelpRequested()) {
                    return null;
                }
                leaf = level;
            }
            if (leaf.hasMatchedOption("--db-path")) {
                return null; // a path relative to this directory, a database the daemon does not serve
            }
            Object command = leaf.commandSpec().userObject();
            if (command instanceof HandedCommand handed) {
                return handed.handed(context, parsed.expandedArgs(), directory);
            }
            return command instanceof HandedCommand.AsLine ? new DaemonRequest.Line(parsed.expandedArgs()) : null;
        } catch (picocli.CommandLine.PicocliException | NvidbException e) {
            return null; // run here, where the same trouble is reported
        }
    }

    /**
     * What the daemon runs for {@code request} of a client in {@code directory}: a line as its
     * words parse ({@link #handedRequest}), a typed request as it is.
     */
    static DaemonRequest accepted(Context context, String directory, DaemonRequest request) {
        if (request instanceof DaemonRequest.Line line) {
            return handedRequest(context, line.args().toArray(String[]::new), directory);
        }
        return request;
    }

    /**
     * Runs a request handed to the daemon ({@link #accepted}) as the command it came from: a line
     * as a line, a typed request by its command, built as for the line {@code job ls} (its
     * defaults, its spec) and given the request's values; failures are reported as a command's
     * are (the same lines, the same exit codes).
     */
    static int runHanded(Context context, DaemonRequest request) {
        if (request instanceof DaemonRequest.Line line) {
            return run(context, line.args().toArray(String[]::new));
        }
        DaemonRequest.Typed typed = (DaemonRequest.Typed) request;
        String[] words = typed.words().toArray(String[]::new);
        CommandLine commandLine = configure(context, CommandTree.forArgs(new ContextFactory(context), words));
        ParseResult parsed = commandLine.parseArgs(words);
        ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        Object command = leaf.commandSpec().userObject();
        ((HandedCommand) command).takeOver(request);
        DaemonRequest.Options options = typed.options();
        int code;
        try {
            code = ((java.util.concurrent.Callable<?>) command).call() instanceof Integer exit ? exit : 0;
        } catch (Exception e) {
            code = handleFailure(context, e, parsed, options.json(), options.verbose());
        }
        int interrupted = ExitCodes.of(ExitCodes.Outcome.INTERRUPTED);
        if (code != interrupted && Thread.currentThread().isInterrupted()) {
            report(context, false, "interrupted", "interrupted", null);
            return interrupted;
        }
        return code;
    }

    /**
     * Options that may also be given before or between the command words: those of every (queue)
     * command, and the monitor's {@code --remote} for the commands that take it too
     * ({@code nvidb --remote log} is {@code nvidb log --remote}).
     */
    private static final List<String> SHARED_OPTIONS = List.of("--json", "--verbose", "--local", "--remote",
            "--no-remote");

    /**
     * {@code args} with {@code --json} and {@code --verbose} given before or between the command
     * words ({@code nvidb --json job ls}, {@code nvidb job --json ls}) moved after them, where the
     * command declares them, so they mean the same wherever they are typed. Nothing after the
     * command words moves, nor anything after {@code --}.
     */
    static String[] sharedOptionsAfterCommand(CommandLine root, String[] args) {
        List<String> moved = new java.util.ArrayList<>();
        List<String> words = new java.util.ArrayList<>();
        CommandLine command = root;
        int at = 0;
        for (; at < args.length; at++) {
            String arg = args[at];
            if (SHARED_OPTIONS.contains(arg)) {
                moved.add(arg);
            } else if (command.getSubcommands().containsKey(arg)) {
                command = command.getSubcommands().get(arg);
                words.add(arg);
            } else {
                break;
            }
        }
        CommandLine leaf = command;
        if (moved.isEmpty() || words.isEmpty() || !moved.stream().allMatch(option -> leaf.getCommandSpec().findOption(
                option.equals("--no-remote") ? "--remote" : option) != null)) {
            return args;
        }
        List<String> result = new java.util.ArrayList<>(words);
        result.addAll(moved);
        result.addAll(Arrays.asList(args).subList(at, args.length));
        return result.toArray(String[]::new);
    }

    /** The whole configured command tree, for tests that inspect the parser (the skill test). */
    public static CommandLine create(Context context) {
        return configure(context, CommandTree.build(new ContextFactory(context), List.of()));
    }

    private static CommandLine configure(Context context, CommandLine commandLine) {
        commandLine.setOut(context.out());
        commandLine.setErr(context.err());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler((exception, cmd, parseResult) ->
                handleFailure(context, exception, parseResult, wantsJson(parseResult), verbose(parseResult)));
        commandLine.setParameterExceptionHandler((exception, args) -> handleUsage(context, exception, args));
        return commandLine;
    }

    private static int handleFailure(Context context, Exception exception, ParseResult parseResult, boolean json,
                                     boolean verbose) {
        ExitCodes.Outcome outcome = ExitCodes.outcome(exception);
        if (outcome == ExitCodes.Outcome.INTERRUPTED) {
            Thread.currentThread().interrupt(); // an InterruptedException that got here cleared it
            report(context, json, "interrupted", exception instanceof InterruptedByUser ? exception.getMessage()
                    : "interrupted", null);
        } else if (exception instanceof NvidbException failure) {
            report(context, json, failure.type(), failure.getMessage(), failure.hint().orElse(null));
        } else {
            report(context, json, "internal", "internal error: " + exception,
                    verbose ? null : "run again with --verbose for the stack trace, and please report it");
        }
        if (verbose) {
            exception.printStackTrace(context.err());
        }
        return ExitCodes.of(outcome);
    }

    private static int handleUsage(Context context, ParameterException exception, String[] args) {
        boolean json = Arrays.stream(args).takeWhile(arg -> !arg.equals("--")).anyMatch("--json"::equals);
        String command = exception.getCommandLine().getCommandSpec().qualifiedName();
        report(context, json, "usage", exception.getMessage(), "see '" + command + " --help'");
        return ExitCodes.of(ExitCodes.Outcome.USAGE);
    }

    /** Prints one failure: a line and an optional hint on stderr, plus the envelope on stdout for --json. */
    static void report(Context context, boolean json, String type, String message, String hint) {
        context.err().println("nvidb: " + Printable.lines(message));
        if (hint != null) {
            context.err().println("  hint: " + Printable.lines(hint));
        }
        if (json) {
            context.out().println(Json.write(JsonError.of(type, message, hint)));
        }
        context.err().flush();
        context.out().flush();
    }

    private static boolean wantsJson(ParseResult parseResult) {
        return matched(parseResult, "--json");
    }

    private static boolean verbose(ParseResult parseResult) {
        return matched(parseResult, "--verbose");
    }

    private static boolean matched(ParseResult parseResult, String option) {
        for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
            if (level.hasMatchedOption(option)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Creates command objects, handing the {@link Context} to those that take one (or are a
     * {@link ContextCall}), and the line's {@link HeadStart} to those that take that too.
     */
    private record ContextFactory(Context context, HeadStart headStart) implements IFactory {

        ContextFactory(Context context) {
            this(context, HeadStart.NONE);
        }

        @Override
        public <K> K create(Class<K> type) throws Exception {
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                Class<?>[] parameters = constructor.getParameterTypes();
                if (parameters.length >= 1 && parameters[0] == Context.class) {
                    constructor.setAccessible(true);
                    if (parameters.length == 1) {
                        return type.cast(constructor.newInstance(context));
                    }
                    if (parameters.length == 2 && parameters[1] == HeadStart.class) {
                        return type.cast(constructor.newInstance(context, headStart));
                    }
                }
            }
            K made = CommandLine.defaultFactory().create(type);
            if (made instanceof ContextCall call) {
                call.context = context;
            }
            return made;
        }
    }
}
