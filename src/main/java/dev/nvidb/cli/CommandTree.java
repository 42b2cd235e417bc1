package dev.nvidb.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command tree as data, so a run builds only the branch it uses: picocli reads every
 * command's annotations when a command is added, and skipping the other thirty commands
 * saves a measurable part of a short command's start-up. Help, usage errors, completion and
 * the skill test get the whole tree; every command gets {@code -h, --help}.
 */
final class CommandTree {

    /** A command and the commands under it. */
    record Branch(String name, Class<?> type, List<Branch> children) {
    }

    private static Branch leaf(String name, Class<?> type) {
        return new Branch(name, type, List.of());
    }

    static final List<Branch> ROOT = List.of(
            leaf("ls", LsCommand.class),
            leaf("add", AddCommand.class),
            leaf("import", ImportCommand.class),
            leaf("info", InfoCommand.class),
            leaf("trust", TrustCommand.class),
            leaf("doctor", DoctorCommand.class),
            new Branch("log", LogCommand.class, List.of(leaf("web", LogWebCommand.class))),
            leaf("web", WebCommand.class),
            leaf("mcp", McpCommand.class),
            new Branch("clean", CleanCommand.class, List.of(
                    leaf("servers", CleanServersCommand.class),
                    leaf("logs", CleanLogsCommand.class),
                    leaf("all", CleanAllCommand.class))),
            new Branch("job", JobCommand.class, List.of(
                    leaf("submit", JobSubmitCommand.class),
                    leaf("ls", JobLsCommand.class),
                    leaf("show", JobShowCommand.class),
                    leaf("why", JobWhyCommand.class),
                    leaf("logs", JobLogsCommand.class),
                    leaf("wait", JobWaitCommand.class),
                    leaf("cancel", JobChangeCommand.Cancel.class),
                    leaf("requeue", JobChangeCommand.Requeue.class),
                    leaf("priority", JobPriorityCommand.class),
                    leaf("note", JobNoteCommand.class),
                    leaf("result", JobResultCommand.class),
                    leaf("purge", JobPurgeCommand.class))),
            new Branch("queue", QueueCommand.class, List.of(
                    leaf("tui", QueueTuiCommand.class),
                    leaf("status", QueueStatusCommand.class),
                    leaf("nodes", QueueNodesCommand.class),
                    leaf("alerts", QueueAlertsCommand.class),
                    leaf("ack", QueueAckCommand.class),
                    leaf("tick", QueueTickCommand.class),
                    leaf("daemon", QueueDaemonCommand.class),
                    leaf("backup", QueueBackupCommand.class),
                    leaf("gc", QueueGcCommand.class),
                    new Branch("keeper", QueueKeeperCommand.class, List.of(
                            leaf("install", QueueKeeperInstallCommand.class),
                            leaf("start", QueueKeeperControlCommand.Start.class),
                            leaf("ensure", QueueKeeperControlCommand.Ensure.class),
                            leaf("stop", QueueKeeperControlCommand.Stop.class),
                            leaf("restart", QueueKeeperControlCommand.Restart.class),
                            leaf("status", QueueKeeperStatusCommand.class),
                            leaf("logs", QueueKeeperLogsCommand.class))),
                    leaf("events", QueueEventsCommand.class),
                    leaf("drain", QueueNodeAdminCommand.Drain.class),
                    leaf("resume", QueueNodeAdminCommand.Resume.class),
                    leaf("ignore", QueueNodeAdminCommand.Ignore.class),
                    leaf("unignore", QueueNodeAdminCommand.Unignore.class),
                    leaf("groups", QueueGroupsCommand.class),
                    leaf("release-group", QueueReleaseGroupCommand.class))),
            leaf("help", HelpCommand.class),
            leaf("completion", CompletionCommand.class),
            leaf("__warmup", WarmupCommand.class));

    /** Commands that work on the whole tree, so a run of theirs builds all of it. */
    private static final List<String> WHOLE_TREE = List.of("help", "completion");

    private CommandTree() {
    }

    /**
     * The root command with the subcommands {@code words} lead to: where the next word names
     * a subcommand only that one is added, otherwise all of them are (so help and "unknown
     * command" messages list everything). An empty {@code words} builds the whole tree.
     */
    static CommandLine build(IFactory factory, List<String> words) {
        CommandLine root = new CommandLine(NvidbCommand.class, factory);
        add(root, ROOT, factory, !words.isEmpty() && WHOLE_TREE.contains(words.get(0)) ? List.of() : words);
        return root;
    }

    /**
     * The root command for {@code args}: alone for {@code --version} (nothing else is read),
     * otherwise as {@link #build} with the command words of {@code args}.
     */
    static CommandLine forArgs(IFactory factory, String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return new CommandLine(NvidbCommand.class, factory);
        }
        return build(factory, commandWords(args));
    }

    /**
     * Gives a command {@code -h, --help} unless its annotation already does, so every command
     * and subcommand answers {@code --help} without each declaring it.
     */
    static CommandLine withHelp(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        if (spec.options().stream().noneMatch(OptionSpec::usageHelp)) {
            spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this help message and exit.").build());
        }
        return command;
    }

    private static void add(CommandLine parent, List<Branch> branches, IFactory factory, List<String> words) {
        String next = words.isEmpty() ? null : words.get(0);
        boolean known = branches.stream().anyMatch(branch -> branch.name().equals(next));
        for (Branch branch : branches) {
            if (known && !branch.name().equals(next)) {
                continue;
            }
            CommandLine child = withHelp(new CommandLine(branch.type(), factory));
            add(child, branch.children(), factory, known ? words.subList(1, words.size()) : List.of());
            parent.addSubcommand(branch.name(), child);
        }
    }

    /** The words of a command line that can name commands: those before the first option. */
    static List<String> commandWords(String[] args) {
        List<String> words = new java.util.ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("-")) {
                break;
            }
            words.add(arg);
        }
        return words;
    }
}
