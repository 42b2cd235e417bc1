package dev.nvidb.store;

import static dev.nvidb.store.Specs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.AlertKind;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertStoreTest {

    @TempDir
    Path dir;

    @Test
    void anAlertRaisedTwiceWithTheSameKeyExistsOnce() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            AlertStore alerts = new AlertStore(database);
            Optional<Long> first = alerts.raise(failed(7, at(1)));
            Optional<Long> again = alerts.raise(failed(7, at(2)));
            assertTrue(first.isPresent());
            assertEquals(Optional.empty(), again);
            List<Alert> open = alerts.listOpen();
            assertEquals(1, open.size());
            assertEquals(at(1), open.get(0).at());
            assertEquals("job 7 failed (exit 1)", open.get(0).message());
        }
    }

    @Test
    void acknowledgingClosesOneOrAllAndRaisingAgainDoesNotReopen() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            AlertStore alerts = new AlertStore(database);
            long one = alerts.raise(failed(1, at(1))).orElseThrow();
            alerts.raise(failed(2, at(2)));
            alerts.raise(failed(3, at(3)));
            assertTrue(alerts.acknowledge(one, at(4)));
            assertFalse(alerts.acknowledge(one, at(5)));
            assertEquals(List.of(2L, 3L), alerts.listOpen().stream().map(Alert::jobId).toList());
            assertEquals(2, alerts.acknowledgeAll(at(6)));
            assertEquals(List.of(), alerts.listOpen());
            alerts.raise(failed(1, at(7)));
            assertEquals(List.of(), alerts.listOpen());
            assertEquals(3, alerts.listRecent(10).size());
        }
    }

    @Test
    void aFailedDeliveryStaysOwedUntilItSucceeds() {
        try (Database database = Database.open(dir.resolve("queue.db"))) {
            AlertStore alerts = new AlertStore(database);
            long id = alerts.raise(failed(1, at(1))).orElseThrow();
            database.write("deliver", conn -> {
                alerts.recordDelivery(conn, id, "hook", "exit 1", at(2));
                return null;
            });
            assertEquals(List.of(id), database.read("read", conn -> alerts.listUndelivered(conn, "hook")).stream()
                    .map(Alert::id).toList());
            database.write("deliver", conn -> {
                alerts.recordDelivery(conn, id, "hook", null, at(3));
                alerts.recordDelivery(conn, id, "log", null, at(3));
                return null;
            });
            assertEquals(List.of(), database.read("read", conn -> alerts.listUndelivered(conn, "hook")));
            assertEquals(List.of(), database.read("read", conn -> alerts.listUndelivered(conn, "log")));
            assertEquals(1, database.read("read", conn -> alerts.listUndelivered(conn, "desktop")).size());
        }
    }

    private static Alert failed(long jobId, Instant at) {
        return Alert.raise(at, "job-failed:" + jobId + ":1", AlertKind.JOB_FAILED, "warning", jobId, "gpu-a",
                "job " + jobId + " failed (exit 1)", "Traceback ...");
    }
}
