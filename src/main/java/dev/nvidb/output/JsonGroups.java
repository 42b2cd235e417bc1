package dev.nvidb.output;

import dev.nvidb.model.JobState;
import dev.nvidb.queue.GroupView;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code queue groups --json} and {@code queue release-group --json}. */
public final class JsonGroups {

    private JsonGroups() {
    }

    /** {@code {"schema_version", "ok", "groups": [...]}}. */
    public record Groups(int schemaVersion, boolean ok, List<Group> groups) {
    }

    /**
     * One group: its jobs by state (every state), {@code done} (completed) of {@code total},
     * {@code finished} (ended in any way), the array's {@code max_running}, the quick failures
     * in a row, and the fail-fast hold.
     */
    public record Group(String name, int total, int done, int finished, Map<String, Integer> counts,
                        Integer maxRunning, int quickFailures, boolean held, BigDecimal heldAt, String heldReason) {
    }

    /** {@code queue release-group G}: whether it was held. */
    public record Released(int schemaVersion, boolean ok, String group, boolean released) {
    }

    public static Groups of(List<GroupView> views) {
        return new Groups(Json.SCHEMA_VERSION, true, views.stream().map(JsonGroups::group).toList());
    }

    static Group group(GroupView view) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        int finished = 0;
        for (Map.Entry<JobState, Integer> entry : view.counts().entrySet()) {
            counts.put(entry.getKey().key(), entry.getValue());
            finished += entry.getKey().finished() ? entry.getValue() : 0;
        }
        return new Group(view.name(), view.total(), view.done(), finished, counts, view.maxRunning(),
                view.quickFailures(), view.held(), JsonJob.seconds(view.heldAt()), view.heldReason());
    }
}
