package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.AgentScript;
import dev.nvidb.agent.LogChunk;
import dev.nvidb.agent.LogRead;
import dev.nvidb.error.NodeException;
import dev.nvidb.error.UsageException;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Reads a job's output where it lives, on its node, with one agent request per read: the last
 * lines for {@code job show} and {@code job logs}, and, for {@code job logs -f}, the bytes after
 * an offset, so following never repeats or skips a byte. One read returns at most
 * {@link LogRead#LIMIT} bytes.
 */
public final class LogReader {

    private final QueueNodes nodes;
    private final ProbeRound round;

    public LogReader(QueueNodes nodes, Duration timeout) {
        this(nodes, new ProbeRound(AgentScript.bundled(), timeout));
    }

    /**
     * @param nodes where jobs ran
     * @param round how requests reach a node
     */
    public LogReader(QueueNodes nodes, ProbeRound round) {
        this.nodes = nodes;
        this.round = round;
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

    /** The last {@code lines} lines of the job's stdout (or stderr), at most {@link LogRead#LIMIT} bytes. */
    public String tail(Location job, boolean stderr, int lines) {
        return new String(lastLines(job, stderr, lines).bytes(), StandardCharsets.UTF_8);
    }

    /**
     * The last {@code lines} lines and the offset just after them, read consistently: the size
     * is taken first and only bytes before it are shown, so following from the offset neither
     * repeats nor skips a byte.
     */
    public Chunk lastLines(Location job, boolean stderr, int lines) {
        return fetch(job, LogRead.lastLines(job.id(), dir(job), stderr, Math.max(0, lines)));
    }

    /** One chunk of output starting at byte {@code offset}, at most {@code max} bytes (and {@link LogRead#LIMIT}). */
    public Chunk read(Location job, boolean stderr, long offset, int max) {
        return fetch(job, LogRead.from(job.id(), dir(job), stderr, offset, Math.max(0, max)));
    }

    /**
     * Bytes of output and the offset to read from next; {@code cut} when a last-lines read
     * showed only the end of lines longer than {@link LogRead#LIMIT} bytes (or fewer lines than
     * asked): it never reads more than that.
     */
    public record Chunk(byte[] bytes, long nextOffset, boolean cut) {
    }

    private Chunk fetch(Location job, LogRead read) {
        Node node = nodes.findNode(job.node()).orElseThrow(() -> new NodeException(
                "job " + job.id() + " ran on " + job.node() + ", which is no longer configured"));
        NodeAnswer answer = round.ask(node, AgentRequest.probe(read.dir()).withoutSnapshot().withLogs(List.of(read)));
        if (!answer.answered()) {
            throw new NodeException("cannot read the output of job " + job.id() + ": " + answer.failure());
        }
        if (!answer.reply().agentAnswered()) {
            throw new NodeException("cannot read the output of job " + job.id() + ": " + node.name()
                    + " has no python3 for the node agent");
        }
        LogChunk chunk = answer.reply().findLog(job.id()).orElseThrow(() -> new NodeException(
                node.name() + ": the node agent did not answer the log read of job " + job.id()));
        return switch (chunk.status()) {
            case OK -> new Chunk(chunk.bytes(), chunk.nextOffset(), chunk.cut());
            case MISSING -> new Chunk(new byte[0], read.offset() == null ? 0 : read.offset(), false);
            case ERROR -> throw new NodeException("cannot read the output of job " + job.id() + " on " + node.name()
                    + ": " + chunk.reason());
        };
    }

    private static String dir(Location job) {
        if (job.jobDir() == null || job.node() == null) {
            throw new UsageException("job " + job.id() + " has not run yet, so it has no output",
                    "see 'nvidb job show " + job.id() + "' for why it waits");
        }
        return job.jobDir();
    }
}
