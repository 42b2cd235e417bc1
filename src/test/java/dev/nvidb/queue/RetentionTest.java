package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.config.BackupConfig;
import dev.nvidb.config.RetentionConfig;
import dev.nvidb.model.JobState;
import dev.nvidb.store.AlertStore;
import dev.nvidb.store.Database;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retention removes exactly what is past its limit, and nothing still needed. */
class RetentionTest {

    @TempDir
    Path dir;

    private static long run(FakeNodeQueue fixture, String name, List<Long> after) {
        return fixture.queue.submitting().submit(new SubmitRequest(name, "python train.py", 1, 1000, null, null,
                Map.of(), 0, after, List.of(), null, 0, List.of(), null, "tester@here"));
    }

    /** Runs a job to its end with {@code code}; returns its id. */
    private static long finished(FakeNodeQueue fixture, String name, int code) {
        long id = run(fixture, name, List.of());
        fixture.queue.ticking().now();
        fixture.node.exit(id, code, null);
        fixture.clock.advance(Duration.ofSeconds(5));
        fixture.queue.ticking().now();
        assertTrue(fixture.queue.reading().getJob(id).job().state().finished(), name + " ended");
        return id;
    }

    private static long alertOf(FakeNodeQueue fixture, long job) {
        return fixture.queue.reading().openAlerts().stream().filter(alert -> job == alert.jobId()).findFirst()
                .orElseThrow().id();
    }

    private static Set<Long> jobIds(FakeNodeQueue fixture) {
        return fixture.queue.reading().listJobs(JobSelection.all()).stream().map(job -> job.job().id())
                .collect(Collectors.toSet());
    }

    @Test
    void removesFinishedJobsEventsAndDeliveredAlertsPastTheirLimitsAndNothingStillNeeded() {
        Path db = dir.resolve("home/nvidb/queue.db");
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), db, base -> DaemonMaintenanceTest.with(
                base, BackupConfig.defaults(), new RetentionConfig(30, 30, 30, 0)));
             Database side = Database.open(db)) {
            long completed = finished(fixture, "completed", 0);
            long delivered = finished(fixture, "failed-delivered", 1);
            long owed = finished(fixture, "failed-owed", 1);
            long open = finished(fixture, "failed-open", 1);
            long needed = finished(fixture, "needed-by-pending", 0);
            long running = run(fixture, "running", List.of());
            fixture.queue.ticking().now();
            long pending = run(fixture, "waits-for-running", List.of(needed, running));
            fixture.queue.ticking().now();
            long deliveredAlert = alertOf(fixture, delivered);
            long owedAlert = alertOf(fixture, owed);
            long openAlert = alertOf(fixture, open);
            fixture.queue.reading().acknowledge(deliveredAlert);
            fixture.queue.reading().acknowledge(owedAlert);
            Instant now = fixture.clock.instant();
            side.write("deliver", conn -> {
                AlertStore alerts = new AlertStore(side);
                alerts.recordDelivery(conn, deliveredAlert, "log", null, now);
                alerts.recordDelivery(conn, owedAlert, "log", "disk full", now);
                return null;
            });

            fixture.clock.advance(Duration.ofDays(31));
            long recent = finished(fixture, "recent", 0);
            int eventsBefore = fixture.queue.reading().events(0, null, 100_000).size();
            Instant cutoff = fixture.clock.instant().minus(Duration.ofDays(30));

            RetentionResult rehearsal = fixture.queue.retention().run(true);
            assertEquals(List.of(completed, delivered, owed, open), rehearsal.jobs());
            assertEquals(eventsBefore, fixture.queue.reading().events(0, null, 100_000).size(), "a dry run changes nothing");
            assertTrue(jobIds(fixture).contains(completed), "a dry run changes nothing");

            RetentionResult result = fixture.queue.retention().run(false);
            assertEquals(List.of(completed, delivered, owed, open), result.jobs());
            assertEquals(Set.of(needed, running, pending, recent), jobIds(fixture),
                    "running and pending jobs, a job a pending job depends on, and recent jobs stay");
            assertEquals(JobState.PENDING, fixture.queue.reading().getJob(pending).job().state());
            assertEquals(1, result.alerts(), "only the acknowledged alert every channel has delivered");
            Set<Long> alertsLeft = side.read("alerts", conn -> new AlertStore(side).listRecent(conn, 100)).stream()
                    .map(alert -> alert.id()).collect(Collectors.toSet());
            assertEquals(Set.of(owedAlert, openAlert), alertsLeft);
            List<EventView> events = fixture.queue.reading().events(0, null, 100_000);
            assertTrue(result.events() > 0);
            assertTrue(events.stream().allMatch(event -> !event.at().isBefore(cutoff)
                    || Set.of(running, pending).contains(event.jobId())), "old events only of live jobs stay");
            assertTrue(events.stream().anyMatch(event -> event.at().isBefore(cutoff) && event.jobId() != null
                    && event.jobId() == pending), "a pending job's history stays");
            assertTrue(fixture.queue.retention().run(false).jobs().isEmpty(), "a second run finds nothing more");
        }
    }

    @Test
    void aJobsRowStaysUntilItsNodeHasDealtWithItsDirectory() {
        Path db = dir.resolve("home/nvidb/queue.db");
        // The fake node does not know remove_dirs (like an older agent): it never confirms a removal.
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), db, base -> DaemonMaintenanceTest.with(
                base, BackupConfig.defaults(), new RetentionConfig(30, 30, 30, 14)))) {
            long old = finished(fixture, "old", 0);
            fixture.clock.advance(Duration.ofDays(31));
            RetentionResult result = fixture.queue.retention().run(false);
            assertEquals(List.of(), result.jobs());
            assertTrue(jobIds(fixture).contains(old));
            assertTrue(fixture.node.requests().stream().anyMatch(request -> request.has("remove_dirs")),
                    "the node was asked to remove the directory");
        }
    }

    @Test
    void zeroKeepsForever() {
        Path db = dir.resolve("home/nvidb/queue.db");
        try (FakeNodeQueue fixture = new FakeNodeQueue(dir.resolve("home"), db, base -> DaemonMaintenanceTest.with(
                base, BackupConfig.defaults(), new RetentionConfig(0, 0, 0, 0)))) {
            long old = finished(fixture, "old", 0);
            fixture.clock.advance(Duration.ofDays(3650));
            RetentionResult result = fixture.queue.retention().run(false);
            assertEquals(List.of(), result.jobs());
            assertEquals(0, result.events());
            assertTrue(jobIds(fixture).contains(old));
        }
    }
}
