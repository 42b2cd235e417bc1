package dev.nvidb.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nvidb.json.Mappers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent's {@code await_exit} request (docs/agent-protocol.md): the agent holds its reply
 * until one of some attempt directories has its exit status (or is gone), or a time has passed,
 * looking every few milliseconds. A command waiting for its jobs sends it, between its ticks,
 * to the agent it keeps on a job's node, and so ticks as soon as a job ended instead of at its
 * next poll. The request changes nothing on the node. Pure: builds the line, reads the reply.
 */
public final class ExitWatch {

    /** The longest one request may hold an agent (the agent's own limit is the same). */
    public static final Duration LONGEST = Duration.ofSeconds(10);

    private static final ObjectMapper MAPPER = Mappers.PLAIN;

    private ExitWatch() {
    }

    /** The request line: watch {@code dirs} (as the node's agent knows them) for at most {@code longest}. */
    public static String request(List<String> dirs, Duration longest) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("no directory to watch");
        }
        long millis = Math.max(0, Math.min(longest.toMillis(), LONGEST.toMillis()));
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode watch = root.putObject("await_exit");
        dirs.forEach(watch.putArray("dirs")::add);
        watch.put("ms", millis);
        return root.toString();
    }

    /**
     * The directories the agent's reply names as ended (empty: the time passed first); empty
     * when the reply is not an answer to this request (an error, or an agent that does not know
     * it), so the caller waits as it would without one.
     */
    public static Optional<List<String>> exited(byte[] reply) {
        JsonNode root;
        try {
            root = MAPPER.readTree(reply);
        } catch (IOException e) {
            return Optional.empty();
        }
        JsonNode exited = root == null ? null : root.get("exited");
        if (exited == null || !exited.isArray() || root.hasNonNull("error") && !root.get("error").asText().isEmpty()) {
            return Optional.empty();
        }
        List<String> dirs = new ArrayList<>();
        for (JsonNode dir : exited) {
            if (!dir.isTextual()) {
                return Optional.empty();
            }
            dirs.add(dir.asText());
        }
        return Optional.of(List.copyOf(dirs));
    }
}
