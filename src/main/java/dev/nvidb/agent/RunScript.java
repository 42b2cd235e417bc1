package dev.nvidb.agent;

import dev.nvidb.error.UsageException;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
    /** The line (then the directory) the script prints on stderr before it exits {@link #EXIT_NO_WORKDIR}. */
    public static final String NO_WORKDIR_LINE = "nvidb: cannot enter the working directory ";

    /**
     * Where a job runs without {@code --workdir}: {@code work/} in its attempt directory (the
     * node's agent makes it), so a job that cleans its working directory never touches the
     * queue's files beside it.
     */
    static final String DEFAULT_WORKDIR = "\"$NVIDB_JOB_DIR\"/work";

    /** Linux's MAX_ARG_STRLEN (32 pages of 4 KiB) less the terminating NUL: the longest single argument or variable. */
    public static final int MAX_ARGUMENT_BYTES = 128 * 1024 - 1;
    /** The most the command, name and environment of a job may take together (ARG_MAX is usually 2 MiB). */
    public static final int MAX_TOTAL_BYTES = 1024 * 1024;
    /** The longest job name (it is exported as NVIDB_JOB_NAME and shown in every listing). */
    public static final int MAX_NAME_BYTES = 1024;
    /** PATH_MAX on Linux. */
    public static final int MAX_PATH_BYTES = 4096;

    /** Variables bash sets itself or keeps read-only: never restored from a recorded environment. */
    private static final Set<String> SHELL_OWNED = Set.of("_", "PWD", "OLDPWD", "SHLVL", "BASHOPTS", "SHELLOPTS",
            "UID", "EUID", "PPID");

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
        check(spec).ifPresent(problem -> {
            throw new UsageException(problem);
        });
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
        if (spec.sweep().group() != null) {
            script.append("export NVIDB_GROUP=").append(ShellQuote.quote(spec.sweep().group())).append('\n');
        }
        if (spec.sweep().arrayIndex() != null) {
            script.append("export NVIDB_ARRAY_INDEX=").append(spec.sweep().arrayIndex()).append('\n');
        }
        for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
            checkEnvName(variable.getKey()).ifPresent(problem -> {
                throw new UsageException(problem, "use --env NAME=VALUE with NAME like MY_VAR");
            });
            script.append("export ").append(variable.getKey()).append('=').append(ShellQuote.quote(variable.getValue()))
                    .append('\n');
        }
        String dir = workdir(spec.workdir()).orElse(DEFAULT_WORKDIR);
        script.append("if ! cd -- ").append(dir).append("; then\n")
                .append("  printf '").append(NO_WORKDIR_LINE).append("%s\\n' ").append(dir).append(" >&2\n")
                .append("  exit ").append(EXIT_NO_WORKDIR).append("\nfi\n");
        return script.append("exec bash -c ").append(ShellQuote.quote(spec.command())).append('\n').toString();
    }

    /**
     * The script for a job placed on a Slurm node: the same contract, but a GPU job's
     * {@code CUDA_VISIBLE_DEVICES} is the one Slurm set for the GPUs it gave ({@code --gres}); a CPU job
     * still sees no GPU.
     */
    public static String renderForSlurm(long jobId, JobSpec spec, Assignment assignment) {
        String script = render(jobId, spec, assignment);
        if (spec.cpuOnly()) {
            return script;
        }
        String ours = "export CUDA_VISIBLE_DEVICES=" + ShellQuote.quote(devices(assignment)) + "\n";
        return script.replace(ours, "export CUDA_VISIBLE_DEVICES=\"${CUDA_VISIBLE_DEVICES-}\"  # set by Slurm\n");
    }

    /**
     * The script for a job placed on the local node, run with {@code environment}, the
     * environment recorded when it was submitted (null: the one the node's agent has, as on a
     * remote node). Right after the header, the script unsets every variable it inherited (the
     * environment of whichever client's tick launched it) and exports the recorded ones; what
     * {@link #render(long, JobSpec, Assignment)} exports follows and wins. Variables bash itself
     * owns ({@code PWD}, {@code SHLVL}, read-only ones) and names that are not shell names
     * (exported functions) are not restored; a recorded environment without {@code PATH} keeps
     * the node's {@code PATH}.
     */
    public static String render(long jobId, JobSpec spec, Assignment assignment, Map<String, String> environment) {
        String script = render(jobId, spec, assignment);
        if (environment == null) {
            return script;
        }
        int header = script.indexOf('\n', script.indexOf('\n') + 1) + 1; // the shebang and the comment line
        return script.substring(0, header) + environmentBlock(environment) + script.substring(header);
    }

    /** Replaces the inherited environment with {@code environment} (names sorted). */
    static String environmentBlock(Map<String, String> environment) {
        // Without a PATH of its own (an in-process or "env -i" submitter) the job keeps the node's:
        // bash would not even find bash.
        String keep = environment.containsKey("PATH") ? "" : "[ \"$nvidb_name\" = PATH ] || ";
        StringBuilder block = new StringBuilder("# the submitter's environment, exactly: nothing inherited stays\n")
                .append("for nvidb_name in $(compgen -e); do ").append(keep)
                .append("unset \"$nvidb_name\" 2>/dev/null; done; unset nvidb_name\n");
        for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
            String name = variable.getKey();
            if (!ENV_NAME.matcher(name).matches() || SHELL_OWNED.contains(name) || checkEnvName(name).isPresent()
                    || checkText(name, variable.getValue()).isPresent()) {
                continue;
            }
            block.append("export ").append(name).append('=').append(ShellQuote.quote(variable.getValue())).append('\n');
        }
        return block.toString();
    }

    /**
     * Why {@code spec} cannot become a {@code run.sh} that starts, or empty when it can: the one
     * check shared by the submit (which refuses the job, changing nothing) and {@link #render}
     * (which the tick calls for a row written by an older version or by hand, and then fails
     * that job alone). Environment names as {@link #checkEnvName}; no NUL byte (a shell cannot
     * carry one) and no unpaired UTF-16 surrogate (not text; the agent's JSON cannot carry it)
     * in the name, command, environment or working directory; the command and each
     * {@code NAME=value} within Linux's limit for one argument ({@link #MAX_ARGUMENT_BYTES}),
     * since {@code run.sh} ends in {@code exec bash -c COMMAND} and exports each variable; all of
     * them together within {@link #MAX_TOTAL_BYTES}, leaving room for the node's own environment.
     */
    public static Optional<String> check(JobSpec spec) {
        for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
            Optional<String> name = checkEnvName(variable.getKey());
            if (name.isPresent()) {
                return name;
            }
        }
        Optional<String> text = checkText("the job name", spec.name())
                .or(() -> checkText("the command", spec.command()))
                .or(() -> spec.workdir() == null ? Optional.empty() : checkText("the working directory", spec.workdir()));
        if (text.isPresent()) {
            return text;
        }
        long total = 0;
        for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
            Optional<String> value = checkText("the value of " + variable.getKey(), variable.getValue());
            if (value.isPresent()) {
                return value;
            }
            long bytes = utf8Length(variable.getKey()) + 1 + utf8Length(variable.getValue());
            if (bytes > MAX_ARGUMENT_BYTES) {
                return Optional.of("environment variable " + variable.getKey() + " is " + bytes
                        + " bytes; Linux passes at most " + MAX_ARGUMENT_BYTES + " bytes per variable (MAX_ARG_STRLEN)");
            }
            total += bytes + 1;
        }
        long command = utf8Length(spec.command());
        if (command > MAX_ARGUMENT_BYTES) {
            return Optional.of("the command is " + command + " bytes; the node runs it as one argument of bash -c,"
                    + " and Linux takes at most " + MAX_ARGUMENT_BYTES + " bytes per argument (MAX_ARG_STRLEN)");
        }
        long name = utf8Length(spec.name());
        if (name > MAX_NAME_BYTES) {
            return Optional.of("the job name is " + name + " bytes; at most " + MAX_NAME_BYTES);
        }
        if (spec.workdir() != null && utf8Length(spec.workdir()) > MAX_PATH_BYTES) {
            return Optional.of("the working directory is longer than " + MAX_PATH_BYTES + " bytes (PATH_MAX)");
        }
        total += command + name;
        if (total > MAX_TOTAL_BYTES) {
            return Optional.of("the command and its environment are " + total + " bytes together; the node's exec"
                    + " takes at most " + MAX_TOTAL_BYTES + " here (half of Linux's usual 2 MiB, the rest is the"
                    + " node's own environment)");
        }
        return Optional.empty();
    }

    /** Why {@code value} cannot be stored and passed to a shell, or empty: a NUL byte or an unpaired surrogate. */
    public static Optional<String> checkText(String what, String value) {
        int nul = value.indexOf('\0');
        if (nul >= 0) {
            return Optional.of(what + " contains a NUL byte (at character " + nul + "); a shell cannot pass one on");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of(what + " is not valid text (an unpaired UTF-16 surrogate at character " + i + ")");
            }
        }
        return Optional.empty();
    }

    private static long utf8Length(String value) {
        long bytes = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
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
