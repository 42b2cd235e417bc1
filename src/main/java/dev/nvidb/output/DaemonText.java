package dev.nvidb.output;

import dev.nvidb.queue.DaemonPass;
import dev.nvidb.queue.MaintenanceResult;
import dev.nvidb.queue.RetentionResult;
import dev.nvidb.queue.TickResult;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code queue daemon} prints for a pass: in text, a line for a pass that changed something
 * or failed (every pass with {@code always}: {@code --once}), then its alert delivery, backup and
 * retention lines (the keeper's log); with {@code --json}, one document per pass.
 */
public final class DaemonText {

    private DaemonText() {
    }

    /** The pass's text lines (none for a quiet pass). */
    public static List<String> lines(DaemonPass pass, boolean always) {
        List<String> lines = new ArrayList<>();
        TickResult tick = pass.tick();
        if (pass.error() != null) {
            lines.add(pass.startedAt() + " pass failed: " + Printable.of(pass.error()));
        } else if (always || !tick.settled().isEmpty() || !tick.placed().isEmpty() || !tick.failed().isEmpty()) {
            StringBuilder line = new StringBuilder(pass.startedAt() + " tick: " + tick.answered().size()
                    + " nodes answered, " + tick.settled().size() + " jobs settled, " + tick.placed().size()
                    + " placed, in " + tick.duration().toMillis() + " ms");
            tick.failed().forEach(failure -> line.append("; not answering: ").append(Printable.of(failure)));
            lines.add(line.toString());
        }
        String delivered = QueueText.daemonDelivery(pass.delivery(), always);
        if (delivered != null) {
            lines.add(pass.startedAt() + " " + delivered);
        }
        MaintenanceResult done = pass.maintenance();
        if (done.backup() != null) {
            lines.add(pass.startedAt() + " backup: " + Printable.of(done.backup().file().toString())
                    + (done.backup().removed().isEmpty() ? "" : ", " + done.backup().removed().size() + " old removed"));
        }
        if (done.backupError() != null) {
            lines.add(pass.startedAt() + " backup failed: " + Printable.of(done.backupError()));
        }
        RetentionResult removed = done.retention();
        if (removed != null && (!removed.jobs().isEmpty() || removed.events() + removed.alerts() + removed.jobDirs() > 0
                || !removed.problems().isEmpty())) {
            lines.add(pass.startedAt() + " retention: " + retention(removed));
        }
        if (done.retentionError() != null) {
            lines.add(pass.startedAt() + " retention failed: " + Printable.of(done.retentionError()));
        }
        return lines;
    }

    /** The pass as its {@code --json} document. */
    public static JsonCommands.DaemonPassed document(DaemonPass pass) {
        TickResult tick = pass.tick();
        return JsonCommands.DaemonPassed.of(pass.ok(), pass.startedAt(), pass.error(), tick == null ? null
                : new JsonCommands.Ticked(Json.SCHEMA_VERSION, tick.failed().isEmpty(), tick.ran(), tick.answered(),
                tick.failed(), tick.skipped(), tick.settled(), tick.placed(), tick.duration().toMillis()),
                pass.maintenance()).with(pass.delivery());
    }

    /** "3 finished jobs, 120 events, 2 alerts, 3 job directories" (and the problems): what retention removed. */
    public static String retention(RetentionResult result) {
        String line = result.jobs().size() + " finished jobs, " + result.events() + " events, " + result.alerts()
                + " alerts, " + result.jobDirs() + (result.dryRun() ? " job directories due" : " job directories");
        return result.problems().isEmpty() ? line : line + "; " + result.problems().size() + " problems: "
                + Printable.of(String.join("; ", result.problems()));
    }
}
