package dev.nvidb.cli;

import dev.nvidb.error.UsageException;
import dev.nvidb.node.LocalHost;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.Queue;
import dev.nvidb.queue.SubmitRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nvidb job submit [options] -- COMMAND…}: queue a command to run when a GPU has room. */
@Command(name = "submit", description = "Queue a command; it runs when a GPU has room for it.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb job submit -- python train.py --lr 3e-4",
                "  nvidb job submit --vram 20G --gpus 2 --name sweep-1 -- python train.py",
                "  nvidb job submit --after 12 --node gpu-a -- ./eval.sh",
                "  nvidb job submit --gpus 0 --wait -- make data        CPU only; exit as the job",
                "  nvidb job submit --script run.sh --env SEED=3"})
final class JobSubmitCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

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
    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job after this long and mark it timeout.")
    Long timeout;
    @Option(names = "--retries", paramLabel = "N", description = "Start again up to N times if its process vanishes.")
    int retries;
    @Option(names = "--tag", description = "A label (repeatable).")
    List<String> tags = new ArrayList<>();
    @Option(names = "--note", description = "Your note about the job.")
    String note;
    @Option(names = "--script", paramLabel = "FILE", description = "Run this local file's contents instead of a command.")
    String script;
    @Option(names = "--wait", description = "Block until the job ends (exit 0 completed, 1 failed, 2 timed out waiting).")
    boolean waitForEnd;
    @Option(names = "--wait-timeout", paramLabel = "SECONDS", description = "Give up waiting after this long.")
    Long waitTimeout;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command, after --, or one quoted string.")
    List<String> command = new ArrayList<>();

    JobSubmitCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            SubmitRequest request = request(wiring);
            long id = queue.submitting().submit(request);
            boolean background = !waitForEnd && !options.tick && !options.noTick && SubmitTicker.available(context);
            if (!options.noTick && !background) {
                // A new job is news the last tick did not see: place it now rather than at the next pass.
                queue.ticking().now();
            }
            JobView job = queue.reading().getJob(id);
            if (waitForEnd) {
                return JobWaiting.await(context, queue, options, List.of(id), waitTimeout, 0);
            }
            Render.submitted(context, options.json, job);
            context.out().flush();
            // Last, once the answer is out: on a small machine the ticker's start competes for the CPU.
            if (background && !SubmitTicker.ensure(context, queue.ticking(), options.local)) {
                queue.ticking().now();
            }
            return ExitCodes.ok();
        }
    }

    private SubmitRequest request(Wiring wiring) {
        long vramMb = vram == null ? 0 : Sizes.mebibytes(vram, "--vram");
        String user = context.environment().getOrDefault("USER", System.getProperty("user.name"));
        return new SubmitRequest(name, commandLine(wiring), gpus, vramMb, node, workdir, environment(), priority,
                after, afterAny, timeout, retries, tags, note, user + "@" + LocalHost.shortName());
    }

    private String commandLine(Wiring wiring) {
        if (script != null) {
            if (!command.isEmpty()) {
                throw new UsageException("give either --script FILE or a command, not both");
            }
            Path file = wiring.home().expand(script);
            try {
                byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i < bytes.length; i++) {
                    if (bytes[i] == 0) {
                        throw new UsageException("--script " + script + " contains a NUL byte (at byte " + i
                                + "); a shell script cannot", "give a text file; run a binary with -- ./program");
                    }
                }
                return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new UsageException("--script " + script + " is not UTF-8 text",
                        "convert it to UTF-8 (iconv -t UTF-8) and submit again");
            } catch (IOException e) {
                throw new UsageException("cannot read --script " + script + ": " + describe(e),
                        "give the path of a local file whose contents should run on the node");
            }
        }
        if (command.isEmpty()) {
            throw new UsageException("no command to run", "put the command after --: nvidb job submit -- python train.py");
        }
        return command.size() == 1 ? command.get(0) : ShellWords.join(command);
    }

    private Map<String, String> environment() {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String pair : env) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("--env takes KEY=VALUE, got '" + pair + "'");
            }
            variables.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return variables;
    }

    private static String describe(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage();
    }
}
