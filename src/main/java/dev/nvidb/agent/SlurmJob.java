package dev.nvidb.agent;

import java.util.Locale;
import java.util.Objects;

/**
 * One Slurm job as {@code squeue} or {@code sacct} printed it: the facts the agent passes on
 * unread, parsed here so there is one parser, tested without a cluster ({@code SlurmStatesTest}).
 *
 * @param jobId    Slurm's job id
 * @param state    Slurm's state, upper case, without {@code sacct}'s "by UID" ({@code PENDING}, {@code TIMEOUT}, …)
 * @param reason   Slurm's reason ({@code Resources}, {@code Priority}, {@code NonZeroExitCode}), or null for {@code None}
 * @param exitCode the exit status as a shell reports it ({@code sacct}'s {@code N:S}: N, or 128+S for a
 *                 signal), or null when Slurm did not say ({@code squeue} never does)
 */
public record SlurmJob(long jobId, String state, String reason, Integer exitCode) {

    /** The {@code squeue --format} the agent uses: {@code %i|%T|%r|%j} (id, state, reason, name). */
    public static final String SQUEUE_FORMAT = "%i|%T|%r|%j";
    /** The {@code sacct --format} the agent uses, with {@code --parsable2}: id, state, exit code, reason. */
    public static final String SACCT_FORMAT = "JobIDRaw,State,ExitCode,Reason";

    public SlurmJob {
        Objects.requireNonNull(state, "state");
    }

    /** A line of {@code squeue -h -o '%i|%T|%r'}, e.g. {@code 12|PENDING|Resources}. */
    public static SlurmJob fromSqueue(String line) {
        String[] fields = fields(line, 3);
        return new SlurmJob(jobId(fields[0], line), state(fields[1]), reason(fields[2]), null);
    }

    /** A line of {@code sacct -n -X -P -o JobIDRaw,State,ExitCode,Reason}, e.g. {@code 12|CANCELLED by 0|0:15|None}. */
    public static SlurmJob fromSacct(String line) {
        String[] fields = fields(line, 4);
        return new SlurmJob(jobId(fields[0], line), state(fields[1]), reason(fields[3]), exitCode(fields[2]));
    }

    /** Slurm's {@code N:S} (exit status, signal) as one shell status: N, or 128+S when a signal ended it. */
    static Integer exitCode(String text) {
        String[] parts = text.strip().split(":");
        try {
            int status = Integer.parseInt(parts[0]);
            int signal = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return signal > 0 ? 128 + signal : status;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String[] fields(String line, int count) {
        String[] fields = line.strip().split("\\|", -1);
        if (fields.length < count) {
            throw new IllegalArgumentException("not a Slurm job line: " + line);
        }
        return fields;
    }

    private static long jobId(String text, String line) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a Slurm job line: " + line, e);
        }
    }

    /** {@code CANCELLED by 1000} → {@code CANCELLED}; {@code COMPLETING} stays. */
    private static String state(String text) {
        String state = text.strip().split("\\s+")[0].toUpperCase(Locale.ROOT);
        if (state.isEmpty()) {
            throw new IllegalArgumentException("a Slurm job line without a state");
        }
        return state;
    }

    private static String reason(String text) {
        String reason = text.strip();
        return reason.isEmpty() || reason.equals("None") || reason.equals("(null)") ? null : reason;
    }

    /** {@code PENDING (Resources)}, {@code RUNNING}: the state with its reason, for people. */
    public String describe() {
        return reason == null ? state : state + " (" + reason + ")";
    }
}
