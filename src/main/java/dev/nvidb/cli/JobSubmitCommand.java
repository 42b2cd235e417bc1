package dev.nvidb.cli;

import dev.nvidb.app.SubmitAnswer;
import dev.nvidb.app.HeadStart;
import dev.nvidb.app.Wiring;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.daemon.DaemonRequest;
import dev.nvidb.error.Missing;
import dev.nvidb.error.UsageException;
import dev.nvidb.node.LocalHost;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.ScriptDirectives;
import dev.nvidb.queue.SubmitRequest;
import dev.nvidb.queue.Ticking;
import dev.nvidb.remote.ForwardedLine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb job submit [options] -- COMMAND…}: queue a command to run when a GPU has room. */
@Command(name = "submit", description = {"Queue a command; it runs when a GPU has room for it.",
        "",
        "Several words after -- run exactly as given: each word is one argument, nothing in it is"
                + " special to the shell ('a; b' stays one argument). A single word after -- is a command line"
                + " run by the shell (bash -c on the node): -- \"a; b\" runs two commands, and"
                + " -- 'python train.py --lr 1e-3 > out.txt' runs with its redirection. Quote accordingly."},
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job submit -- python train.py --lr 3e-4",
                "  nvidb job submit -- 'cd ~/proj && python train.py > log.txt'  # a shell line",
                "  nvidb job submit --vram 20G --gpus 2 --name sweep-1 -- python train.py",
                "  nvidb job submit --after 12 --node gpu-a -- ./eval.sh",
                "  nvidb job submit --gpus 0 --wait -- make data        CPU only; exit as the job",
                "  nvidb job submit --script run.sh --env SEED=3"})
final class JobSubmitCommand implements Callable<Integer>, HandedCommand {

    private final Context context;
    private final HeadStart headStart;

    @Mixin
    QueueOptions options;

    @Mixin
    OpIdOption operation;

    @Option(names = {"-n", "--name"}, description = "Job name (default: the command's first word).")
    String name;
    @Option(names = "--vram", paramLabel = "SIZE", description = "GPU memory per GPU, e.g. 20G or 512M (default: none reserved).")
    String vram;
    @Option(names = "--gpus", paramLabel = "N", description = "GPUs on one node (0: CPU only; default 1).")
    int gpus = 1;
    @Option(names = "--node", description = "Run only on this node (exact name or unique prefix).")
    String node;
    @Option(names = "--workdir", paramLabel = "DIR", description = "Directory on the node (~ is the node's home).")
    String workdir;
    @Option(names = "--env", paramLabel = "KEY=VALUE", description = "Extra environment variable (repeatable).")
    List<String> env = new ArrayList<>();
    @Option(names = "--priority", description = "Higher runs first (default 0).")
    int priority;
    @Option(names = "--after", split = ",", paramLabel = "ID", description = "Run after these jobs completed successfully.")
    List<Long> after = new ArrayList<>();
    @Option(names = "--after-any", split = ",", paramLabel = "ID", description = "Run after these jobs ended, however.")
    List<Long> afterAny = new ArrayList<>();
    @Option(names = "--timeout", paramLabel = "SECONDS", converter = NumberOption.Timeout.class, description = "Kill the job after this long and mark it timeout.")
    Long timeout;
    @Option(names = "--retries", paramLabel = "N", converter = NumberOption.Count.class, description = "Start again up to N times if its process vanishes.")
    int retries;
    @Option(names = "--retry-oom", paramLabel = "N", converter = NumberOption.RetryOom.class, description = "If it fails"
            + " out of GPU memory, queue it again up to N times (0-10) with 1.25x its peak memory reserved.")
    int retryOom;
    @Option(names = "--exclusive", description = "Run only on GPUs with no other process at all, and keep every other"
            + " job off them while it runs.")
    boolean exclusive;
    @Option(names = "--allow-slurm", description = "If the workstations cannot place it now, hand it to a Slurm node"
            + " (a server of kind: slurm) instead of waiting.")
    boolean allowSlurm;
    @Option(names = "--tag", description = "A label (repeatable).")
    List<String> tags = new ArrayList<>();
    @Option(names = "--note", description = "Your note about the job.")
    String note;
    @Option(names = "--script", paramLabel = "FILE", description = "Run this local file's contents instead of a command;"
            + " its leading '#nvidb --gpus=2' lines act as options (the command line wins).")
    String script;
    @Option(names = "--key", paramLabel = "KEY", description = "Idempotency key: if a pending, running or completed job"
            + " has it, that job is the answer and nothing is submitted (a failed or cancelled one is submitted again).")
    String key;
    @Option(names = "--group", paramLabel = "GROUP", description = "Put the job in this group (default: $NVIDB_GROUP;"
            + " an array's own name).")
    String group;
    @Option(names = "--array", paramLabel = "SPEC", description = "Submit one job per index, in one group: A-B[:STEP]"
            + " or a list 1,3,5, then %%CAP for at most CAP running at once (0-99%%8). {} in the command is the"
            + " index; the job sees $NVIDB_ARRAY_INDEX.")
    String array;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;
    @Option(names = "--wait", description = "Block until the job ends (exit 0 completed, 1 failed, 2 timed out waiting).")
    boolean waitForEnd;
    @Option(names = "--wait-timeout", paramLabel = "SECONDS", converter = NumberOption.WaitTimeout.class, description = "Give up waiting after this long.")
    Long waitTimeout;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command after --: several words run exactly as given; a single word is run by the shell.")
    List<String> command = new ArrayList<>();

    /** In the daemon: the job as the client's options and script made it ({@link #takeOver}). */
    private SubmitRequest handedJob;

    JobSubmitCommand(Context context, HeadStart headStart) {
        this.context = context;
        this.headStart = headStart;
    }

    /**
     * Stores the job, then answers with its id whatever happens next: once the job is stored the
     * command exits 0 (with {@code --wait}, as the job ended), and trouble in the tick that
     * follows is reported on stderr, never as a failed submit (a script that retries failed
     * submits would queue the job twice). Ctrl-C: see {@link SubmitAnswer}.
     */
    @Override
    public Integer call() {
        SubmitAnswer answer = new SubmitAnswer(context.out(), context.err(), options.json, waitForEnd);
        boolean keepAgents = waitForEnd && !options.noTick;
        try (Wiring wiring = (keepAgents ? headStart.wiring(context, options) : new Wiring(context)).lastUse()) {
            SubmitRequest request = request(wiring);
            // A job that depends on others names jobs that must exist: none do without a database.
            Long dependency = java.util.stream.Stream.concat(request.after().stream(), request.afterAny().stream())
                    .findFirst().orElse(null);
            Queue queue = dependency == null ? wiring.queue(options) : wiring.existingQueue(options, () -> Missing.dependency(dependency));
            // A waiting submit ticks more than once: its agents stay up between its ticks. They
            // started before the line was parsed (HeadStart), or start now, while the job is stored.
            try (Ticking.AgentScope agents = keepAgents ? wiring.lasting(queue.ticking().keepAgents(wiring.takeAgents()))
                    : () -> { }) {
                return submit(queue, answer, request);
            }
        }
    }

    private int submit(Queue queue, SubmitAnswer answer, SubmitRequest request) {
        dev.nvidb.queue.Submitted[] submitted = new dev.nvidb.queue.Submitted[1];
        long id = answer.store(() -> {
            submitted[0] = queue.submitting().submitAll(request);
            answer.submitted(submitted[0]);
            return submitted[0].cells().get(0).id();
        }, queue.reading()::getJob);
        List<Long> ids = submitted[0].ids();
        boolean background = !waitForEnd && !options.tick && !options.noTick && SubmitTicker.available(context);
        return placeAndAnswer(queue, answer, id, ids, background);
    }

    private int placeAndAnswer(Queue queue, SubmitAnswer answer, long id, List<Long> ids, boolean background) {
        if (!options.noTick && !background) {
            // A new job is news the last tick did not see: place it now rather than at the next pass.
            if (!tick(queue, id)) {
                return interruptedAfterStoring(answer, id);
            }
        }
        if (waitForEnd) {
            try {
                return JobWaiting.await(context, queue, options, ids, waitTimeout, 0);
            } catch (dev.nvidb.error.InterruptedByUser e) {
                throw new dev.nvidb.error.InterruptedByUser("interrupted while waiting for job " + id
                        + "; it stays queued (nvidb job cancel " + id + " stops it)", e);
            } catch (RuntimeException e) {
                context.err().println("nvidb: job " + id + " is queued; waiting for it failed (nvidb job wait "
                        + id + " waits again)");
                throw e;
            }
        }
        answer.print(queue.submitting().current(id).orElse(null));
        // Last, once the answer is out: on a small machine the ticker's start competes for the CPU.
        if (background && !SubmitTicker.ensure(context, queue.ticking(), options.local)) {
            tick(queue, id);
        }
        return ExitCodes.ok();
    }

    /**
     * Submit-then-place ({@link dev.nvidb.queue.Submitting#place}): a failure is reported as a
     * warning (the job stays queued for the next tick). False when the thread was interrupted.
     */
    private boolean tick(Queue queue, long id) {
        dev.nvidb.queue.Submitting.Placement placement = queue.submitting().place(id);
        if (placement.interrupted()) {
            return false;
        }
        if (placement.failure() != null) {
            RuntimeException e = placement.failure();
            context.err().println("nvidb: job " + id + " is queued, but placing it failed: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
            context.err().println("  hint: the next tick places it ('nvidb queue tick', or any queue command)");
            context.err().flush();
        }
        return true;
    }

    /**
     * Interrupted after the job was stored: the answer is its id, exit 0 (not 130: the job
     * exists, and a caller that retries a failed submit must not queue it twice). With
     * {@code --wait} the wait is what was interrupted: 130, the id on stderr.
     */
    private int interruptedAfterStoring(SubmitAnswer answer, long id) {
        if (waitForEnd) {
            Thread.currentThread().interrupt();
            throw new dev.nvidb.error.InterruptedByUser("interrupted before waiting for job " + id
                    + "; it stays queued (nvidb job cancel " + id + " stops it)");
        }
        Thread.interrupted();
        answer.print(null);
        context.err().println("nvidb: interrupted; job " + id + " is queued and the next tick places it");
        context.err().flush();
        return ExitCodes.ok();
    }

    /**
     * A submit that does not wait goes to the daemon as the job it would store: a {@code --script}
     * read in the client's {@code directory}, its {@code #nvidb} lines applied. One with
     * {@code --op-id} goes as its line (the replay of a recorded answer is the line's).
     */
    @Override
    public DaemonRequest handed(Context context, List<String> line, String directory) {
        if (waitForEnd || waitTimeout != null) {
            return null;
        }
        if (operation.opId != null) {
            return new DaemonRequest.Line(line);
        }
        NvidbHome home = NvidbHome.fromEnvironment(context.environment(), System.getProperty("user.home"));
        return new DaemonRequest.Submit(HandedCommand.options(options), request(home, Path.of(directory)));
    }

    @Override
    public void takeOver(DaemonRequest request) {
        DaemonRequest.Submit submit = (DaemonRequest.Submit) request;
        HandedCommand.takeOver(options, submit.options());
        handedJob = submit.job();
    }

    private SubmitRequest request(Wiring wiring) {
        return handedJob != null ? handedJob : request(wiring.home(), Path.of("").toAbsolutePath());
    }

    /** The job as this command's options make it, a relative {@code --script} read in {@code directory}. */
    private SubmitRequest request(NvidbHome home, Path directory) {
        String commandLine = commandLine(home, directory);
        long vramMb = vram == null ? 0 : Sizes.mebibytes(vram, "--vram");
        String user = context.environment().getOrDefault("USER", System.getProperty("user.name"));
        String groupName = group != null ? group : context.environment().get("NVIDB_GROUP");
        return new SubmitRequest(name, commandLine, gpus, vramMb, node, workdir, SubmitRequest.variables(env), priority,
                after, afterAny, timeout, retries, tags, note, user + "@" + LocalHost.shortName(),
                ForwardedLine.localEnvironment(context.environment()), new dev.nvidb.queue.SweepRequest(groupName, key, array, operation.opId),
                new dev.nvidb.model.RunPolicy(exclusive, retryOom, allowSlurm));
    }

    /** Applies the script's {@code #nvidb} lines to the options the command line did not give. */
    private void applyDirectives(String contents, String file) {
        ScriptDirectives.apply(contents, file, this::given, (option, value) -> {
            switch (option) {
                case "--name" -> name = value;
                case "--gpus" -> gpus = Integer.parseInt(value);
                case "--vram" -> vram = value;
                case "--node" -> node = value;
                case "--workdir" -> workdir = value;
                case "--priority" -> priority = Integer.parseInt(value);
                case "--timeout" -> timeout = new NumberOption.Timeout().convert(value);
                case "--retries" -> retries = new NumberOption.Count().convert(value);
                case "--retry-oom" -> retryOom = new NumberOption.RetryOom().convert(value);
                case "--group" -> group = value;
                case "--key" -> key = value;
                case "--array" -> array = value;
                case "--tag" -> tags.add(value);
                case "--env" -> env.add(value);
                default -> throw new IllegalStateException(option);
            }
            if (option.equals("--vram")) {
                Sizes.mebibytes(value, "--vram");
            }
        });
    }

    /** Whether the command line gave {@code option} (repeatable ones: at least once). */
    private boolean given(String option) {
        picocli.CommandLine.ParseResult result = spec.commandLine().getParseResult();
        return result != null && result.hasMatchedOption(option);
    }

    private String commandLine(NvidbHome home, Path directory) {
        if (script != null) {
            if (!command.isEmpty()) {
                throw new UsageException("give either --script FILE or a command, not both");
            }
            String contents = ForwardedLine.readScript(directory.resolve(home.expand(script)), script);
            applyDirectives(contents, script);
            return contents;
        }
        return SubmitRequest.commandLine(command);
    }

}
