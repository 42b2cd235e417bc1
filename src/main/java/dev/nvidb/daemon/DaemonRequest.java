package dev.nvidb.daemon;

import dev.nvidb.model.JobState;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.queue.SubmitRequest;
import dev.nvidb.queue.SweepRequest;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a command asks the queue's daemon to do for it, as typed messages (the client's parser
 * has already turned the command line into them): submit a job, read the status, list jobs, wait
 * for jobs. {@link Line} is the fallback for the few other short commands the daemon runs: their
 * words, as the client's parser expanded them. The daemon answers with {@link DaemonReply}s.
 *
 * <p>On the wire (see {@link Handoff}) a request is a kind byte and its fields, each written by
 * {@link #write} and read back by {@link #read}; strings are UTF-8 with an int length, absent
 * values a -1 length or a 0 flag.
 */
public sealed interface DaemonRequest {

    /** The options every queue command has (besides {@code --db-path}, never handed over). */
    record Options(boolean json, boolean verbose, boolean tick, boolean noTick, boolean local) {
    }

    /** A request of one command, with the options every queue command has. */
    interface Typed {
        Options options();

        /** The words of the command it runs as (a wait's with its ids, which that command requires). */
        List<String> words();
    }

    /** {@code job submit} without {@code --wait}: the job as the client's options and script made it. */
    record Submit(Options options, SubmitRequest job) implements DaemonRequest, Typed {
        @Override
        public List<String> words() {
            return List.of("job", "submit");
        }
    }

    /** {@code queue status}. */
    record Status(Options options, boolean procs, int recent) implements DaemonRequest, Typed {
        @Override
        public List<String> words() {
            return List.of("queue", "status");
        }
    }

    /** {@code job ls}: states empty for all, node and group null for any, limit null for no limit. */
    record ListJobs(Options options, List<JobState> states, String node, Integer limit, String group)
            implements DaemonRequest, Typed {
        public ListJobs {
            states = List.copyOf(states);
        }

        @Override
        public List<String> words() {
            return List.of("job", "ls");
        }
    }

    /** {@code job wait}: until every job ended, or {@code timeoutSeconds}; with the last {@code logs} lines. */
    record Wait(Options options, List<Long> ids, Long timeoutSeconds, int logs) implements DaemonRequest, Typed {
        public Wait {
            ids = List.copyOf(ids);
        }

        @Override
        public List<String> words() {
            List<String> words = new ArrayList<>(List.of("job", "wait"));
            ids.forEach(id -> words.add(Long.toString(id)));
            return words;
        }
    }

    /** Any other command the daemon runs, as its words (argument files already expanded). */
    record Line(List<String> args) implements DaemonRequest {
        public Line {
            args = List.copyOf(args);
        }
    }

    /** Whether the client may stop waiting for the answer (Ctrl-C) and the daemon then stops too: a wait. */
    default boolean interruptible() {
        return this instanceof Wait;
    }

    byte SUBMIT = 's';
    byte STATUS = 't';
    byte LIST = 'l';
    byte WAIT = 'w';
    byte LINE = 'r';

    /** Writes {@code request} as its kind byte and fields. */
    static void write(DataOutputStream out, DaemonRequest request) throws IOException {
        if (request instanceof Submit submit) {
            out.writeByte(SUBMIT);
            options(out, submit.options());
            job(out, submit.job());
        } else if (request instanceof Status status) {
            out.writeByte(STATUS);
            options(out, status.options());
            out.writeBoolean(status.procs());
            out.writeInt(status.recent());
        } else if (request instanceof ListJobs list) {
            out.writeByte(LIST);
            options(out, list.options());
            out.writeInt(list.states().size());
            for (JobState state : list.states()) {
                string(out, state.name());
            }
            string(out, list.node());
            optionalLong(out, list.limit() == null ? null : (long) list.limit());
            string(out, list.group());
        } else if (request instanceof Wait wait) {
            out.writeByte(WAIT);
            options(out, wait.options());
            longs(out, wait.ids());
            optionalLong(out, wait.timeoutSeconds());
            out.writeInt(wait.logs());
        } else if (request instanceof Line line) {
            out.writeByte(LINE);
            strings(out, line.args());
        }
    }

    /** Reads one request written by {@link #write}; an {@link IOException} for anything else. */
    static DaemonRequest read(DataInputStream in) throws IOException {
        byte kind = in.readByte();
        try {
            switch (kind) {
                case SUBMIT:
                    return new Submit(options(in), job(in));
                case STATUS:
                    return new Status(options(in), in.readBoolean(), in.readInt());
                case LIST: {
                    Options options = options(in);
                    int count = count(in);
                    List<JobState> states = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        states.add(JobState.valueOf(string(in)));
                    }
                    String node = string(in);
                    Long limit = optionalLong(in);
                    return new ListJobs(options, states, node, limit == null ? null : Math.toIntExact(limit), string(in));
                }
                case WAIT:
                    return new Wait(options(in), longs(in), optionalLong(in), in.readInt());
                case LINE:
                    return new Line(strings(in));
                default:
                    throw new IOException("unknown request kind " + kind);
            }
        } catch (IllegalArgumentException | NullPointerException | ArithmeticException e) {
            throw new IOException("malformed request: " + e.getMessage(), e);
        }
    }

    private static void options(DataOutputStream out, Options options) throws IOException {
        out.writeBoolean(options.json());
        out.writeBoolean(options.verbose());
        out.writeBoolean(options.tick());
        out.writeBoolean(options.noTick());
        out.writeBoolean(options.local());
    }

    private static Options options(DataInputStream in) throws IOException {
        return new Options(in.readBoolean(), in.readBoolean(), in.readBoolean(), in.readBoolean(), in.readBoolean());
    }

    private static void job(DataOutputStream out, SubmitRequest job) throws IOException {
        string(out, job.name());
        string(out, job.command());
        out.writeInt(job.gpus());
        out.writeLong(job.vramMb());
        string(out, job.node());
        string(out, job.workdir());
        map(out, job.environment());
        out.writeInt(job.priority());
        longs(out, job.after());
        longs(out, job.afterAny());
        optionalLong(out, job.timeoutSeconds());
        out.writeInt(job.retries());
        strings(out, job.tags());
        string(out, job.note());
        string(out, job.submitter());
        out.writeBoolean(job.submitterEnvironment() != null);
        if (job.submitterEnvironment() != null) {
            map(out, job.submitterEnvironment());
        }
        SweepRequest sweep = job.sweep();
        string(out, sweep.group());
        string(out, sweep.key());
        string(out, sweep.array());
        string(out, sweep.opId());
        RunPolicy policy = job.policy();
        out.writeBoolean(policy.exclusive());
        out.writeInt(policy.retryOom());
        out.writeBoolean(policy.allowSlurm());
    }

    private static SubmitRequest job(DataInputStream in) throws IOException {
        String name = string(in);
        String command = string(in);
        int gpus = in.readInt();
        long vramMb = in.readLong();
        String node = string(in);
        String workdir = string(in);
        Map<String, String> environment = map(in);
        int priority = in.readInt();
        List<Long> after = longs(in);
        List<Long> afterAny = longs(in);
        Long timeout = optionalLong(in);
        int retries = in.readInt();
        List<String> tags = strings(in);
        String note = string(in);
        String submitter = string(in);
        Map<String, String> submitterEnvironment = in.readBoolean() ? map(in) : null;
        SweepRequest sweep = new SweepRequest(string(in), string(in), string(in), string(in));
        RunPolicy policy = new RunPolicy(in.readBoolean(), in.readInt(), in.readBoolean());
        return new SubmitRequest(name, command, gpus, vramMb, node, workdir, environment, priority, after, afterAny,
                timeout, retries, tags, note, submitter, submitterEnvironment, sweep, policy);
    }

    /** Largest string or list accepted: a request is at most a few MiB (a script, an environment). */
    int MAX_LENGTH = 4 << 20;

    static void string(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > MAX_LENGTH) {
            throw new IOException("bad string length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static int count(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > MAX_LENGTH) {
            throw new IOException("bad count " + count);
        }
        return count;
    }

    private static void strings(DataOutputStream out, List<String> values) throws IOException {
        out.writeInt(values.size());
        for (String value : values) {
            string(out, value);
        }
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        int count = count(in);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(string(in));
        }
        return values;
    }

    private static void longs(DataOutputStream out, List<Long> values) throws IOException {
        out.writeInt(values.size());
        for (long value : values) {
            out.writeLong(value);
        }
    }

    private static List<Long> longs(DataInputStream in) throws IOException {
        int count = count(in);
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(in.readLong());
        }
        return values;
    }

    private static void optionalLong(DataOutputStream out, Long value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    private static Long optionalLong(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }

    static void map(DataOutputStream out, Map<String, String> values) throws IOException {
        out.writeInt(values.size());
        for (Map.Entry<String, String> entry : values.entrySet()) {
            string(out, entry.getKey());
            string(out, entry.getValue());
        }
    }

    static Map<String, String> map(DataInputStream in) throws IOException {
        int count = count(in);
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            values.put(string(in), string(in));
        }
        return values;
    }
}
