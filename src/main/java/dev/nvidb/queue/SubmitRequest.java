package dev.nvidb.queue;

import dev.nvidb.agent.ShellQuote;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.RunPolicy;
import java.util.List;
import java.util.Map;

/**
 * Everything {@code nvidb job submit} was given, already parsed but not yet checked against
 * the queue (dependencies exist, the node is known): {@link Submission} does that.
 *
 * @param name           the job's name, or null to derive it from the command
 * @param command        the command line to run on the node
 * @param gpus           GPUs wanted on one node (0: CPU only)
 * @param vramMb         MiB per GPU
 * @param node           the node as typed (exact name or a unique prefix), or null for any
 * @param workdir        where to run, as typed ({@code ~} is the node's home), or null
 * @param environment    extra variables, in the order given
 * @param priority       higher goes first
 * @param after          jobs that must complete first
 * @param afterAny       jobs that must end (any way) first
 * @param timeoutSeconds limit once running, or null
 * @param retries        restarts allowed when the process vanishes
 * @param tags           labels
 * @param note           the user's note, or null
 * @param submitter      {@code user@host} of the client
 * @param submitterEnvironment the client's whole environment, recorded for a job that may run on
 *                       the local node (it runs with exactly this, plus what run.sh exports); null for none
 * @param sweep          group, key, array and operation id ({@link SweepRequest#NONE} for none)
 * @param policy         {@code --exclusive} and {@code --retry-oom} ({@link RunPolicy#DEFAULT} for neither)
 */
public record SubmitRequest(
        String name,
        String command,
        int gpus,
        long vramMb,
        String node,
        String workdir,
        Map<String, String> environment,
        int priority,
        List<Long> after,
        List<Long> afterAny,
        Long timeoutSeconds,
        int retries,
        List<String> tags,
        String note,
        String submitter,
        Map<String, String> submitterEnvironment,
        SweepRequest sweep,
        RunPolicy policy) {

    public SubmitRequest {
        sweep = sweep == null ? SweepRequest.NONE : sweep;
        policy = policy == null ? RunPolicy.DEFAULT : policy;
        environment = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(environment));
        submitterEnvironment = submitterEnvironment == null ? null
                : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(submitterEnvironment));
        after = List.copyOf(after);
        afterAny = List.copyOf(afterAny);
        tags = List.copyOf(tags);
    }

    /** A request with the default run policy. */
    public SubmitRequest(String name, String command, int gpus, long vramMb, String node, String workdir,
                         Map<String, String> environment, int priority, List<Long> after, List<Long> afterAny,
                         Long timeoutSeconds, int retries, List<String> tags, String note, String submitter,
                         Map<String, String> submitterEnvironment, SweepRequest sweep) {
        this(name, command, gpus, vramMb, node, workdir, environment, priority, after, afterAny, timeoutSeconds,
                retries, tags, note, submitter, submitterEnvironment, sweep, RunPolicy.DEFAULT);
    }

    /** A request outside any sweep. */
    public SubmitRequest(String name, String command, int gpus, long vramMb, String node, String workdir,
                         Map<String, String> environment, int priority, List<Long> after, List<Long> afterAny,
                         Long timeoutSeconds, int retries, List<String> tags, String note, String submitter,
                         Map<String, String> submitterEnvironment) {
        this(name, command, gpus, vramMb, node, workdir, environment, priority, after, afterAny, timeoutSeconds,
                retries, tags, note, submitter, submitterEnvironment, SweepRequest.NONE);
    }

    /** A request without the submitter's environment (a local job then inherits the ticking client's). */
    public SubmitRequest(String name, String command, int gpus, long vramMb, String node, String workdir,
                         Map<String, String> environment, int priority, List<Long> after, List<Long> afterAny,
                         Long timeoutSeconds, int retries, List<String> tags, String note, String submitter) {
        this(name, command, gpus, vramMb, node, workdir, environment, priority, after, afterAny, timeoutSeconds,
                retries, tags, note, submitter, null, SweepRequest.NONE);
    }

    /**
     * The command line of the words typed after {@code --}: a single word is a shell line, run as
     * it is; several run exactly as given, each word one argument ({@code ShellQuote}).
     */
    public static String commandLine(List<String> words) {
        if (words.isEmpty()) {
            throw new UsageException("no command to run", "put the command after --: nvidb job submit -- python train.py");
        }
        return words.size() == 1 ? words.get(0) : ShellQuote.join(words);
    }

    /** Extra variables from {@code KEY=VALUE} pairs, in the order given; a usage error for a pair without a name. */
    public static Map<String, String> variables(List<String> pairs) {
        Map<String, String> variables = new java.util.LinkedHashMap<>();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("--env takes KEY=VALUE, got '" + pair + "'");
            }
            variables.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return variables;
    }
}
