package dev.nvidb.engine;

import dev.nvidb.error.NodeException;
import dev.nvidb.error.UsageException;
import dev.nvidb.node.CommandResult;
import dev.nvidb.node.Node;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Reads a job's output where it lives, on its node: the last lines for {@code job show} and
 * {@code job logs}, and, for {@code job logs -f}, the bytes after an offset, so following never
 * repeats or skips a byte.
 */
public final class LogReader {

    private final QueueNodes nodes;
    private final Duration timeout;

    public LogReader(QueueNodes nodes, Duration timeout) {
        this.nodes = nodes;
        this.timeout = timeout;
    }

    /**
     * Where a job's output lives: its current attempt's directory on its node.
     *
     * @param id     the job
     * @param node   the node of its current or last attempt, or null if it never ran
     * @param jobDir the attempt's directory ({@code ~} is the node's home), or null
     */
    public record Location(long id, String node, String jobDir) {
    }

    /** The last {@code lines} lines of the job's stdout (or stderr). */
    public String tail(Location job, boolean stderr, int lines) {
        return text(run(job, "tail -n " + Math.max(0, lines) + " -- " + file(job, stderr) + " 2>/dev/null || true"));
    }

    /**
     * The last {@code lines} lines and the offset just after them, read consistently: the size
     * is taken first and only bytes before it are shown, so following from the offset neither
     * repeats nor skips a byte.
     */
    public Chunk lastLines(Location job, boolean stderr, int lines) {
        String command = "f=" + file(job, stderr) + "; [ -f \"$f\" ] || { echo 0; exit 0; }; s=$(wc -c < \"$f\"); "
                + "echo $s; head -c $s -- \"$f\" | tail -n " + Math.max(0, lines);
        byte[] out = run(job, command).stdout();
        int newline = 0;
        while (newline < out.length && out[newline] != '\n') {
            newline++;
        }
        long size = Long.parseLong(new String(out, 0, newline, StandardCharsets.US_ASCII).strip());
        byte[] text = newline + 1 <= out.length ? java.util.Arrays.copyOfRange(out, newline + 1, out.length) : new byte[0];
        return new Chunk(text, size);
    }

    /** One chunk of output starting at byte {@code offset}, at most {@code max} bytes. */
    public Chunk read(Location job, boolean stderr, long offset, int max) {
        String command = "f=" + file(job, stderr) + "; [ -f \"$f\" ] && tail -c +" + (offset + 1) + " -- \"$f\" | head -c "
                + max + " || true";
        byte[] bytes = run(job, command).stdout();
        return new Chunk(bytes, offset + bytes.length);
    }

    /** Bytes of output and the offset to read from next. */
    public record Chunk(byte[] bytes, long nextOffset) {
    }

    private CommandResult run(Location job, String command) {
        if (job.jobDir() == null || job.node() == null) {
            throw new UsageException("job " + job.id() + " has not run yet, so it has no output",
                    "see 'nvidb job show " + job.id() + "' for why it waits");
        }
        Node node = nodes.findNode(job.node()).orElseThrow(() -> new NodeException(
                "job " + job.id() + " ran on " + job.node() + ", which is no longer configured"));
        return node.shell().run(command, new byte[0], timeout);
    }

    /** The log file as a shell word: {@code ~/x} becomes {@code "$HOME"/'x'} so the node's home is used. */
    static String file(Location job, boolean stderr) {
        String dir = job.jobDir();
        String name = stderr ? "stderr.log" : "stdout.log";
        if (dir.startsWith("~/")) {
            return "\"$HOME\"/" + quote(dir.substring(2) + "/" + name);
        }
        return quote(dir + "/" + name);
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    private static String text(CommandResult result) {
        return new String(result.stdout(), StandardCharsets.UTF_8);
    }
}
