package dev.nvidb.store;

import dev.nvidb.model.JobState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Sweeps in the database (schema v5): keys of live jobs, groups' running caps, quick failures
 * in a row and fail-fast holds ({@code job_groups}). The key check runs inside the insert's
 * transaction ({@code BEGIN IMMEDIATE}), so two submits of one key cannot both insert.
 */
public final class GroupStore {

    /** A job that holds a key: its id and state. */
    public record KeyHolder(long id, JobState state) {
    }

    /** One group: its jobs by state, its cap, its hold. */
    public record GroupRow(String name, Map<JobState, Integer> counts, Integer maxRunning, int quickFailures,
                           Instant heldAt, String heldReason) {
    }

    private static final String LIVE_KEY = """
            SELECT id, state FROM jobs WHERE job_key = ? AND state IN ('pending', 'running', 'completed')
            ORDER BY id DESC LIMIT 1
            """;
    private static final String SET_CAP = """
            INSERT INTO job_groups (name, max_running) VALUES (?, ?)
            ON CONFLICT (name) DO UPDATE SET max_running = excluded.max_running
            """;
    private static final String COUNTS = """
            SELECT group_name, state, count(*) AS n FROM jobs WHERE group_name IS NOT NULL GROUP BY group_name, state
            """;
    private static final String GROUPS = """
            SELECT name, max_running, quick_failures, held_at, held_reason FROM job_groups
            """;
    private static final String IDS = """
            SELECT id FROM jobs WHERE group_name = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY id
            """;
    private static final String SUCCESS = "UPDATE job_groups SET quick_failures = 0 WHERE name = ?";
    private static final String QUICK_FAILURE = """
            INSERT INTO job_groups (name, quick_failures) VALUES (?, 1)
            ON CONFLICT (name) DO UPDATE SET quick_failures = quick_failures + 1
            RETURNING quick_failures, held_at
            """;
    private static final String HOLD = """
            UPDATE job_groups SET held_at = ?, held_reason = ? WHERE name = ? AND held_at IS NULL
            """;
    private static final String RELEASE = """
            UPDATE job_groups SET held_at = NULL, held_reason = NULL, quick_failures = 0
            WHERE name = ? AND held_at IS NOT NULL
            """;

    private final Database database;

    public GroupStore(Database database) {
        this.database = database;
    }

    /** The newest pending, running or completed job with this key. */
    public Optional<KeyHolder> findLiveKey(Connection connection, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(LIVE_KEY);
             ResultSet rows = Columns.bind(statement, key).executeQuery()) {
            return rows.next() ? Optional.of(new KeyHolder(rows.getLong("id"), JobStore.state(rows.getString("state"))))
                    : Optional.empty();
        }
    }

    /** Sets (or replaces) the most jobs of {@code group} that may run at once. */
    public void setCap(Connection connection, String group, int maxRunning) throws SQLException {
        Columns.update(connection, SET_CAP, group, maxRunning);
    }

    /** Every group with jobs or a row of its own, by name. */
    public List<GroupRow> listGroups(Connection connection) throws SQLException {
        Map<String, Map<JobState, Integer>> counts = new TreeMap<>();
        try (PreparedStatement statement = connection.prepareStatement(COUNTS);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                counts.computeIfAbsent(rows.getString("group_name"), name -> new EnumMap<>(JobState.class))
                        .put(JobStore.state(rows.getString("state")), rows.getInt("n"));
            }
        }
        Map<String, GroupRow> groups = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(GROUPS);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                String name = rows.getString("name");
                groups.put(name, new GroupRow(name, counts.getOrDefault(name, Map.of()),
                        Columns.intOrNull(rows, "max_running"), rows.getInt("quick_failures"),
                        Columns.instant(rows, "held_at"), rows.getString("held_reason")));
            }
        }
        List<GroupRow> all = new ArrayList<>();
        for (Map.Entry<String, Map<JobState, Integer>> entry : counts.entrySet()) {
            GroupRow row = groups.remove(entry.getKey());
            all.add(row != null ? row : new GroupRow(entry.getKey(), entry.getValue(), null, 0, null, null));
        }
        all.addAll(groups.values());
        all.sort(java.util.Comparator.comparing(GroupRow::name));
        return all;
    }

    public List<GroupRow> listGroups() {
        return database.read("list groups", this::listGroups);
    }

    /** The ids of the group's jobs in {@code states}, ascending. */
    public List<Long> idsInGroup(Connection connection, String group, List<JobState> states) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(IDS);
             ResultSet rows = Columns.bind(statement, group, JsonText.write(states.stream().map(JobState::key)
                     .toList())).executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    public List<Long> idsInGroup(String group, List<JobState> states) {
        return database.read("list jobs of group " + group, conn -> idsInGroup(conn, group, states));
    }

    /**
     * Records how a job of {@code group} ended, for fail-fast: a success, or a failure that came
     * later than the window, starts the count again; a quick failure adds one, and the
     * {@code threshold}-th in a row holds the group with {@code reason}. True when this call
     * held it (the caller raises the alert in the same transaction).
     */
    public boolean recordEnd(Connection connection, String group, boolean quickFailure, int threshold, String reason,
                             Instant now) throws SQLException {
        if (!quickFailure || threshold <= 0) {
            Columns.update(connection, SUCCESS, group);
            return false;
        }
        long failures;
        try (PreparedStatement statement = connection.prepareStatement(QUICK_FAILURE);
             ResultSet rows = Columns.bind(statement, group).executeQuery()) {
            rows.next();
            failures = rows.getLong(1);
        }
        return failures >= threshold && Columns.update(connection, HOLD, now, reason, group) == 1;
    }

    /** Lets a held group run again (and starts its count again); false when it was not held. */
    public boolean release(Connection connection, String group) throws SQLException {
        return Columns.update(connection, RELEASE, group) == 1;
    }
}
