package dev.nvidb.queue;

import dev.nvidb.agent.RunScript;
import dev.nvidb.engine.QueueNodes;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a {@link SubmitRequest} and turns it into a {@link JobSpec}: a command is required,
 * environment names must be shell names, the node must exist (exact, then unique prefix).
 * Dependencies on missing jobs are refused by the store in the same transaction as the insert.
 */
final class Submission {

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** The longest timeout: ten years (a larger one would overflow the deadline's arithmetic). */
    static final long MAX_TIMEOUT_SECONDS = 10L * 366 * 24 * 3600;
    /** The longest note or tag a job keeps. */
    static final int MAX_NOTE_CHARS = 64 * 1024;

    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9._:@+=/-]{1,128}");
    /** The longest key. */
    static final int MAX_KEY_CHARS = 512;

    private Submission() {
    }

    /**
     * What one submit stores: one spec, or one per array cell (each with its index, {@code {}}
     * in the command replaced by it, {@code [i]} after its name and key), their group, and the
     * group's running cap.
     */
    record Cells(List<JobSpec> specs, String group, Integer cap) {
    }

    static Cells cells(SubmitRequest request, QueueNodes nodes) {
        SweepRequest sweep = request.sweep();
        if (sweep.group() != null && !GROUP.matcher(sweep.group()).matches()) {
            throw new UsageException("group name '" + sweep.group() + "' is not valid",
                    "a group is 1 to 128 letters, digits and . _ : @ + = / - (from --group or NVIDB_GROUP)");
        }
        if (sweep.key() != null) {
            if (sweep.key().isBlank()) {
                throw new UsageException("--key is empty", "give a key that names this run, e.g. --key lr-0.1-seed-3");
            }
            text("--key", sweep.key(), MAX_KEY_CHARS);
        }
        ArraySpec array = sweep.array() == null ? null : ArraySpec.parse(sweep.array());
        JobSpec base = spec(request, nodes);
        if (array == null) {
            return new Cells(List.of(base.withSweep(new dev.nvidb.model.Sweep(sweep.group(), null, sweep.key()))),
                    sweep.group(), null);
        }
        String group = sweep.group() != null ? sweep.group() : groupOf(base.name());
        List<JobSpec> cells = new ArrayList<>(array.indices().size());
        for (int index : array.indices()) {
            String cellName = base.name() + "[" + index + "]";
            cells.add(new JobSpec(cellName, base.command().replace("{}", Integer.toString(index)), base.gpus(),
                    base.vramMb(), base.node(), base.workdir(), base.environment(), base.dependencies(),
                    base.timeoutSeconds(), base.maxRetries(), base.tags(), base.submitter(),
                    new dev.nvidb.model.Sweep(group, index, sweep.key() == null ? null : sweep.key() + "[" + index + "]"),
                    base.policy()));
        }
        for (JobSpec cell : cells) {
            RunScript.check(cell).ifPresent(problem -> {
                throw new UsageException("cannot queue cell " + cell.sweep().arrayIndex() + " of this array: " + problem,
                        hint(problem));
            });
        }
        return new Cells(cells, group, array.cap());
    }

    /** An array's own group: its name, made a valid group name. */
    private static String groupOf(String name) {
        String group = name.replaceAll("[^A-Za-z0-9._:@+=/-]", "_");
        return group.length() > 128 ? group.substring(0, 128) : group;
    }

    static JobSpec spec(SubmitRequest request, QueueNodes nodes) {
        if (request.command() == null || request.command().isBlank()) {
            throw new UsageException("no command to run", "put the command after --: nvidb job submit -- python train.py");
        }
        if (request.gpus() < 0) {
            throw new UsageException("--gpus must be 0 (CPU only) or more, got " + request.gpus());
        }
        if (request.retries() < 0) {
            throw new UsageException("--retries must be 0 or more, got " + request.retries());
        }
        if (request.timeoutSeconds() != null && request.timeoutSeconds() <= 0) {
            throw new UsageException("--timeout must be a positive number of seconds, got " + request.timeoutSeconds());
        }
        if (request.timeoutSeconds() != null && request.timeoutSeconds() > MAX_TIMEOUT_SECONDS) {
            throw new UsageException("--timeout " + request.timeoutSeconds() + " is more than ten years ("
                    + MAX_TIMEOUT_SECONDS + " s)", "leave --timeout out for a job without a time limit");
        }
        for (Map.Entry<String, String> variable : request.environment().entrySet()) {
            checkVariable(variable.getKey());
        }
        text("--note", request.note(), MAX_NOTE_CHARS);
        for (String tag : request.tags()) {
            text("--tag", tag, MAX_NOTE_CHARS);
        }
        text("--name", request.name(), RunScript.MAX_NAME_BYTES);
        text("the submitter", request.submitter(), MAX_NOTE_CHARS);
        String node = request.node() == null ? null : nodes.resolve(request.node());
        JobSpec spec = new JobSpec(name(request), request.command(), request.gpus(), request.vramMb(), node,
                request.workdir(), request.environment(), dependencies(request), request.timeoutSeconds(),
                request.retries(), request.tags(), request.submitter(), dev.nvidb.model.Sweep.NONE, request.policy());
        if (request.policy().retryOom() > 0 && request.gpus() == 0) {
            throw new UsageException("--retry-oom needs a GPU job: it raises the memory reserved per GPU, and this"
                    + " job has --gpus 0", "drop --retry-oom, or ask for a GPU with --gpus 1 --vram SIZE");
        }
        // Exactly what the launch will check again: a job stored now can always be rendered.
        RunScript.check(spec).ifPresent(problem -> {
            throw new UsageException("cannot queue this job: " + problem, hint(problem));
        });
        return spec;
    }

    private static String hint(String problem) {
        if (problem.contains("MAX_ARG_STRLEN") || problem.contains("2 MiB")) {
            return "put the long part in a file on the node and run that, e.g. -- bash train.sh";
        }
        if (problem.contains("NUL byte") || problem.contains("surrogate")) {
            return "remove the byte; a command, name, variable or directory is text without NUL";
        }
        return null;
    }

    /** A stored string: no NUL byte, valid text, and not absurdly long. */
    private static void text(String what, String value, int maxChars) {
        if (value == null) {
            return;
        }
        RunScript.checkText(what, value).ifPresent(problem -> {
            throw new UsageException("cannot queue this job: " + problem, "remove the byte and submit again");
        });
        if (value.length() > maxChars) {
            throw new UsageException(what + " is " + value.length() + " characters; at most " + maxChars);
        }
    }

    private static void checkVariable(String name) {
        if (!ENV_NAME.matcher(name).matches()) {
            throw new UsageException("--env name '" + name + "' is not a valid variable name",
                    "names are letters, digits and _, not starting with a digit: --env KEY=VALUE");
        }
        if (RunScript.checkEnvName(name).isPresent()) {
            throw new UsageException("--env cannot set " + name + ": the queue sets NVIDB_*, CUDA_VISIBLE_DEVICES"
                    + " and CUDA_DEVICE_ORDER for the job", "pick another name");
        }
    }

    private static List<Dependency> dependencies(SubmitRequest request) {
        Set<Long> seen = new LinkedHashSet<>();
        List<Dependency> dependencies = new ArrayList<>();
        for (long id : request.after()) {
            if (seen.add(id)) {
                dependencies.add(new Dependency(id, true));
            }
        }
        for (long id : request.afterAny()) {
            if (seen.add(id)) {
                dependencies.add(new Dependency(id, false));
            }
        }
        return dependencies;
    }

    /** The name given, else the command's first word without its directory ("python", "train.sh"). */
    private static String name(SubmitRequest request) {
        if (request.name() != null && !request.name().isBlank()) {
            return request.name().strip();
        }
        String first = request.command().strip().split("\\s+", 2)[0];
        int slash = first.lastIndexOf('/');
        String base = slash >= 0 && slash < first.length() - 1 ? first.substring(slash + 1) : first;
        String name = base.replaceAll("[^A-Za-z0-9._+-]", "");
        name = name.isEmpty() ? "job" : name;
        return name.length() > 40 ? name.substring(0, 40) : name;
    }
}
