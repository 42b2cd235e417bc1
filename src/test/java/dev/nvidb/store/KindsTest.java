package dev.nvidb.store;

import static dev.nvidb.store.Specs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.AlertKind;
import dev.nvidb.model.EventKind;
import dev.nvidb.model.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event and alert kinds are enums when written and compared, and their stored keys round-trip;
 * a kind this build does not know (a newer nvidb wrote it) reads back as its text.
 */
class KindsTest {

    @TempDir
    Path dir;

    @Test
    void everyKindRoundTripsThroughItsKey() {
        for (EventKind kind : EventKind.values()) {
            assertEquals(Optional.of(kind), EventKind.fromKey(kind.key()));
            assertTrue(kind.key().matches("[a-z_]+"), kind.key());
        }
        for (AlertKind kind : AlertKind.values()) {
            assertEquals(Optional.of(kind), AlertKind.fromKey(kind.key()));
            assertTrue(kind.key().matches("[a-z_]+"), kind.key());
        }
        assertEquals(Optional.empty(), EventKind.fromKey("PLACED"), "keys are lower case");
        assertEquals(Optional.empty(), AlertKind.fromKey(null));
    }

    @Test
    void aFinalStateRecordsTheEventOfItsName() {
        for (JobState state : JobState.values()) {
            if (state.finished()) {
                assertEquals(state.key(), EventKind.endedAs(state).key());
            }
        }
    }

    @Test
    void everyEventKindIsStoredAndReadBackAsItself() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            EventStore events = new EventStore(database);
            for (EventKind kind : EventKind.values()) {
                events.append(at(1), 7L, "gpu-a", kind, null);
            }
            List<Event> read = events.listSince(0, null, 100);
            assertEquals(Arrays.stream(EventKind.values()).map(EventKind::key).toList(),
                    read.stream().map(Event::kind).toList());
            for (int i = 0; i < read.size(); i++) {
                assertEquals(Optional.of(EventKind.values()[i]), read.get(i).knownKind());
                assertTrue(read.get(i).is(EventKind.values()[i]));
            }
        }
    }

    @Test
    void kindsANewerNvidbWroteReadBackAsTheirText() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            database.write("write as a newer nvidb", conn -> {
                try (var statement = conn.createStatement()) {
                    statement.executeUpdate("INSERT INTO events (at, job_id, kind) VALUES (1, 3, 'gpu_reset')");
                    statement.executeUpdate("INSERT INTO alerts (at, dedup_key, kind, severity, message)"
                            + " VALUES (1, 'disk_full:gpu-a', 'disk_full', 'warning', 'gpu-a: disk full')");
                }
                return null;
            });
            Event event = new EventStore(database).listSince(0, null, 10).get(0);
            assertEquals("gpu_reset", event.kind());
            assertEquals(Optional.empty(), event.knownKind());
            assertFalse(event.is(EventKind.STARTED));
            Alert alert = new AlertStore(database).listOpen().get(0);
            assertEquals("disk_full", alert.kind());
            assertEquals(Optional.empty(), alert.knownKind());
        }
    }

    @Test
    void anAlertIsStoredUnderItsKindsKey() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            AlertStore alerts = new AlertStore(database);
            alerts.raise(Alert.raise(at(1), "node_down:gpu-b:never", AlertKind.NODE_DOWN, "error", null, "gpu-b",
                    "gpu-b is not answering", null));
            Alert read = alerts.listOpen().get(0);
            assertEquals("node_down", read.kind());
            assertEquals(Optional.of(AlertKind.NODE_DOWN), read.knownKind());
        }
    }

    /** docs/schema.md names every event kind the store writes, and no other. */
    @Test
    void theSchemaReferenceListsExactlyTheEventKinds() throws Exception {
        String schema = Files.readString(Path.of("docs/schema.md"));
        Matcher line = Pattern.compile("Kinds the store writes: ([^.]+)\\.").matcher(schema.replace('\n', ' '));
        assertTrue(line.find(), "docs/schema.md lists the event kinds");
        List<String> documented = Pattern.compile("`([a-z_]+)`").matcher(line.group(1)).results()
                .map(match -> match.group(1)).toList();
        assertEquals(Arrays.stream(EventKind.values()).map(EventKind::key).toList(), documented);
    }
}
