package dev.nvidb.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.json.Mappers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a node did with one {@link DirRemoval}.
 *
 * @param id      the job id
 * @param outcome see {@link Outcome}
 * @param reason  why it was refused or failed, or null
 */
public record DirRemovalReport(long id, Outcome outcome, String reason) {

    /** The result of a removal. */
    public enum Outcome {
        /** The directory was removed. */
        REMOVED,
        /** There was no such directory. */
        ABSENT,
        /** A process of the job is alive there: nothing was removed (asked again later). */
        RUNNING,
        /** The node refused or failed (not a job directory, a link, not ours, an I/O error): nothing removed. */
        ERROR
    }

    private static final ObjectMapper MAPPER = Mappers.PLAIN;

    public DirRemovalReport {
        Objects.requireNonNull(outcome, "outcome");
    }

    /**
     * The reports in an agent reply ({@code removed_dirs}), in request order; empty when the
     * reply has none (an agent older than this request kind ignores it).
     */
    public static List<DirRemovalReport> parse(String reply) {
        List<DirRemovalReport> reports = new ArrayList<>();
        JsonNode root;
        try {
            root = MAPPER.readTree(reply == null ? "" : reply.strip());
        } catch (IOException e) {
            return reports;
        }
        if (root == null) {
            return reports;
        }
        for (JsonNode entry : root.path("removed_dirs")) {
            if (!entry.path("id").canConvertToLong()) {
                continue;
            }
            Outcome outcome = switch (entry.path("status").asText("").toLowerCase(Locale.ROOT)) {
                case "removed" -> Outcome.REMOVED;
                case "absent" -> Outcome.ABSENT;
                case "running" -> Outcome.RUNNING;
                default -> Outcome.ERROR;
            };
            JsonNode error = entry.path("error");
            reports.add(new DirRemovalReport(entry.path("id").asLong(), outcome, error.isTextual() ? error.asText() : null));
        }
        return reports;
    }
}
