package dev.nvidb.queue;

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
    private static final Set<String> RESERVED = Set.of("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "NVIDB_JOB_ID",
            "NVIDB_JOB_NAME", "NVIDB_NODE", "NVIDB_JOB_DIR", "NVIDB_STATUS_FILE", "NVIDB_ATTEMPT");

    private Submission() {
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
        for (Map.Entry<String, String> variable : request.environment().entrySet()) {
            checkVariable(variable.getKey());
        }
        String node = request.node() == null ? null : nodes.resolve(request.node());
        return new JobSpec(name(request), request.command(), request.gpus(), request.vramMb(), node, request.workdir(),
                request.environment(), dependencies(request), request.timeoutSeconds(), request.retries(),
                request.tags(), request.submitter());
    }

    private static void checkVariable(String name) {
        if (!ENV_NAME.matcher(name).matches()) {
            throw new UsageException("--env name '" + name + "' is not a valid variable name",
                    "names are letters, digits and _, not starting with a digit: --env KEY=VALUE");
        }
        if (RESERVED.contains(name)) {
            throw new UsageException("--env cannot set " + name + "; the queue sets it for the job");
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
