package dev.nvidb.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The latest times clients wrote into the queue, by what they stamp: the last tick, the tick
 * lease, the newest event, the newest job, a running job's start and a node's last probe.
 * Compared with this machine's clock they show a clock that was ahead when it wrote them (or
 * this one stepped back since); each is one indexed or single-row read.
 */
public final class RecordedTimes {

    /** One recorded time and what recorded it. */
    public record Stamp(String what, Instant at) {
    }

    private static final List<String[]> QUERIES = List.of(
            new String[] {"the last tick", "SELECT MAX(CAST(value AS INTEGER)) FROM meta WHERE key IN ('"
                    + MetaStore.LAST_TICK_AT + "', '" + MetaStore.LAST_TICK_STARTED_AT + "')"},
            new String[] {"the tick lease", "SELECT acquired_at FROM lease WHERE id = 1 AND holder IS NOT NULL"},
            new String[] {"the newest event", "SELECT at FROM events ORDER BY id DESC LIMIT 1"},
            new String[] {"the newest job", "SELECT created_at FROM jobs ORDER BY id DESC LIMIT 1"},
            new String[] {"a running job's start", "SELECT MAX(started_at) FROM jobs WHERE state = 'running'"},
            new String[] {"a node's last probe", "SELECT MAX(last_probe_at) FROM nodes"});

    private RecordedTimes() {
    }

    /** Every stamp that has a value, in the order above. */
    public static List<Stamp> latest(Connection connection) throws SQLException {
        List<Stamp> stamps = new ArrayList<>();
        for (String[] query : QUERIES) {
            try (PreparedStatement statement = connection.prepareStatement(query[1]);
                 ResultSet rows = statement.executeQuery()) {
                if (rows.next()) {
                    long millis = rows.getLong(1);
                    if (!rows.wasNull()) {
                        stamps.add(new Stamp(query[0], Instant.ofEpochMilli(millis)));
                    }
                }
            }
        }
        return stamps;
    }
}
