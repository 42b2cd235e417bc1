package dev.nvidb.agent;

import dev.nvidb.error.UsageException;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders a job's {@code run.sh}, the bash script the node's wrapper runs in the attempt
 * directory. Everything a user typed (name, environment values, working directory, command)
 * is single-quoted, so it reaches the job exactly and never runs as shell code outside the
 * user's own command. Pure: no I/O.
 */
public final class RunScript {

    /** Exit status of a job whose working directory cannot be entered (like "cannot execute"). */
    public static final int EXIT_NO_WORKDIR = 126;

    /**
     * Where a job runs without {@code --workdir}: {@code work/} in its attempt directory (the
     * node's agent makes it), so a job that cleans its working directory never touches the
     * queue's files beside it.
     */
    static final String DEFAULT_WORKDIR = "\"$NVIDB_JOB_DIR\"/work";

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9._][A-Za-z0-9._-]*");

    private RunScript() {
    }

    /**
     * The script for one attempt of a job.
     *
     * @param jobId      the job id
     * @param spec       what the user asked for
     * @param assignment where and which GPUs ({@code gpuIds} empty: a CPU-only job sees no GPU)
     * @throws UsageException when an environment name is invalid or reserved, or a value holds a NUL byte
     */
    public static String render(long jobId, JobSpec spec, Assignment assignment) {
        StringBuilder script = new StringBuilder("#!/usr/bin/env bash\n")
                .append("# nvidb job ").append(jobId).append(", attempt ").append(assignment.attempt())
                .append(": generated; every value is quoted, none is evaluated\n")
                .append("export NVIDB_JOB_DIR=\"$(pwd -P)\"\n")
                .append("export NVIDB_STATUS_FILE=\"$NVIDB_JOB_DIR/status\"\n")
                .append("export NVIDB_JOB_ID=").append(jobId).append('\n')
                .append("export NVIDB_ATTEMPT=").append(assignment.attempt()).append('\n')
                .append("export NVIDB_JOB_NAME=").append(ShellQuote.quote(spec.name())).append('\n')
                .append("export NVIDB_NODE=").append(ShellQuote.quote(assignment.node())).append('\n')
                .append("export CUDA_DEVICE_ORDER=PCI_BUS_ID\n")
                .append("export CUDA_VISIBLE_DEVICES=").append(ShellQuote.quote(devices(assignment))).append('\n');
        for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
            checkEnvName(variable.getKey()).ifPresent(problem -> {
                throw new UsageException(problem, "use --env NAME=VALUE with NAME like MY_VAR");
            });
            script.append("export ").append(variable.getKey()).append('=').append(ShellQuote.quote(variable.getValue()))
                    .append('\n');
        }
        String dir = workdir(spec.workdir()).orElse(DEFAULT_WORKDIR);
        script.append("if ! cd -- ").append(dir).append("; then\n")
                .append("  printf 'nvidb: cannot enter the working directory %s\\n' ").append(dir).append(" >&2\n")
                .append("  exit ").append(EXIT_NO_WORKDIR).append("\nfi\n");
        return script.append("exec bash -c ").append(ShellQuote.quote(spec.command())).append('\n').toString();
    }

    /**
     * Why {@code name} cannot be a job's environment variable, or empty when it can: names
     * match {@code [A-Za-z_][A-Za-z0-9_]*}, and those nvidb sets itself ({@code NVIDB_*},
     * {@code CUDA_VISIBLE_DEVICES}, {@code CUDA_DEVICE_ORDER}) are reserved.
     */
    public static Optional<String> checkEnvName(String name) {
        if (!ENV_NAME.matcher(name).matches()) {
            return Optional.of("invalid environment variable name '" + name + "'");
        }
        if (name.startsWith("NVIDB_") || name.equals("CUDA_VISIBLE_DEVICES") || name.equals("CUDA_DEVICE_ORDER")) {
            return Optional.of("environment variable " + name + " is set by nvidb and cannot be given");
        }
        return Optional.empty();
    }

    private static String devices(Assignment assignment) {
        return assignment.gpuIds().stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /**
     * The working directory as a bash word, expanded on the node: {@code ~} and {@code ~/x} are
     * under the node's {@code $HOME}, {@code ~user/x} under that user's home, a relative path is
     * relative to {@code $HOME}; empty for none (the job runs in {@code work/} of its attempt directory).
     */
    static Optional<String> workdir(String workdir) {
        if (workdir == null || workdir.isEmpty()) {
            return Optional.empty();
        }
        if (workdir.equals("~") || workdir.startsWith("~/")) {
            return Optional.of("\"$HOME\"" + rest(workdir.substring(1)));
        }
        if (workdir.startsWith("~")) {
            int slash = workdir.indexOf('/');
            String user = slash < 0 ? workdir.substring(1) : workdir.substring(1, slash);
            if (USER_NAME.matcher(user).matches()) {
                return Optional.of("~" + user + (slash < 0 ? "" : rest(workdir.substring(slash))));
            }
        }
        if (workdir.startsWith("/")) {
            return Optional.of(ShellQuote.quote(workdir));
        }
        return Optional.of("\"$HOME\"/" + ShellQuote.quote(workdir));
    }

    /** A path's tail after the home part ("" or "/..."), quoted. */
    private static String rest(String tail) {
        return tail.isEmpty() ? "" : ShellQuote.quote(tail);
    }
}
