package dev.nvidb.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the campaign checks once the queue has converged, from the files the parts left: the
 * jobs and alerts in {@code queue.db} (read with SQLite, nothing else open), each job's start
 * file, each attempt's exit file on its node, and {@code alerts.log}.
 *
 * <p>Definitions. A <em>start</em> is one line a job appended when it began. A <em>duplicate</em>
 * is an attempt (job, attempt number) that started more than once, whatever its launch tokens
 * (the same launch run twice, or a second launch of an attempt whose first one ran), or a
 * submit stored twice, or an alert delivered twice. A retry (a new attempt after a requeue, a
 * lost attempt or a failed launch) is an honest new attempt, counted apart. A <em>loss</em> is
 * a job missing or not in a final state at the end, a final state its exit file contradicts, a
 * start the database does not know (a job that ran but is recorded as never started, or as a
 * later attempt), an ended attempt with an exit code and no start, or an alert never delivered.
 */
final class FaultChecks {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final Pattern START = Pattern.compile("(\\d+) (\\d+) (\\S+) (\\S+)");
    /** Exit codes a killed job's wrapper records: 128 + TERM or KILL. */
    private static final List<Integer> KILLED = List.of(143, 137);

    /** One check's outcome. */
    record Check(String name, boolean passed, List<String> problems) {
    }

    /** One job's row, as the checks need it. */
    record Row(long id, String name, String state, int attempt, String token, String node, String jobDir,
               Integer exitCode, Long startedAt, String holdReason) {
    }

    /** One start line. */
    record Start(long id, int attempt, String token, String node) {
    }

    final List<Check> checks = new ArrayList<>();
    final Map<String, Integer> states = new TreeMap<>();
    final Map<String, Integer> figures = new LinkedHashMap<>();
    int duplicates;
    int losses;

    /** Runs every check; {@code homes} maps a node name to its user's home. */
    void run(Path database, Path alertsLog, Map<String, Path> homes, FaultWorkload workload) throws Exception {
        Map<String, Row> rows = new HashMap<>();
        java.util.Set<String> placed = new java.util.HashSet<>();
        List<Long> alertIds = new ArrayList<>();
        List<Long> undelivered = new ArrayList<>();
        String integrity;
        int requeued;
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + database);
             Statement sql = db.createStatement()) {
            try (ResultSet rs = sql.executeQuery("PRAGMA integrity_check")) {
                integrity = rs.next() ? rs.getString(1) : "no answer";
            }
            int stored = 0;
            try (ResultSet rs = sql.executeQuery("SELECT id, name, state, attempt, launch_token, node, job_dir,"
                    + " exit_code, started_at, hold_reason FROM jobs ORDER BY id")) {
                while (rs.next()) {
                    stored++;
                    Row row = new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getObject(8) == null ? null : rs.getInt(8),
                            rs.getObject(9) == null ? null : rs.getLong(9), rs.getString(10));
                    rows.merge(row.name(), row, (a, b) -> { throw new IllegalStateException("two jobs named " + a.name()); });
                }
            } catch (IllegalStateException twice) {
                checks.add(new Check("each submit stored once", false, List.of(twice.getMessage())));
                duplicates++;
            }
            figures.put("jobs stored", stored);
            try (ResultSet rs = sql.executeQuery("SELECT job_id, detail FROM events WHERE kind = 'placed'")) {
                while (rs.next()) {
                    com.fasterxml.jackson.databind.JsonNode detail = JSON.readTree(rs.getString(2));
                    placed.add(rs.getLong(1) + " " + detail.get("attempt").asInt() + " " + detail.get("launch_token").asText());
                }
            }
            requeued = count(sql, "SELECT count(*) FROM events WHERE kind = 'requeued'");
            figures.put("retried events (vanished → pending)", count(sql, "SELECT count(*) FROM events WHERE kind = 'retried'"));
            try (ResultSet rs = sql.executeQuery("SELECT a.id, d.delivered_at FROM alerts a LEFT JOIN alert_deliveries d"
                    + " ON d.alert_id = a.id AND d.channel = 'log' ORDER BY a.id")) {
                while (rs.next()) {
                    alertIds.add(rs.getLong(1));
                    if (rs.getObject(2) == null) {
                        undelivered.add(rs.getLong(1));
                    }
                }
            }
        }
        figures.put("requeued events (by request or a failed launch)", requeued);
        checks.add(new Check("PRAGMA integrity_check = ok", "ok".equals(integrity), List.of(integrity)));
        checkJobs(rows, placed, homes, workload);
        checkAlerts(alertIds, undelivered, alertsLog);
        List<String> internal = workload.finished.stream().filter(run -> run.exitCode() == 70 || run.exitCode() < 0)
                .map(run -> run.command() + " → " + run.exitCode() + ": " + run.stderr().strip()).toList();
        checks.add(new Check("no command that ran to its end failed with an internal error", internal.isEmpty(), internal));
    }

    /**
     * The jobs' checks; {@code placed} holds "job attempt token" of every placement the events
     * record (a requeue keeps the attempt number until the next placement and clears the token,
     * so the row alone does not know every launch).
     */
    private void checkJobs(Map<String, Row> rows, java.util.Set<String> placed, Map<String, Path> homes,
                           FaultWorkload workload) throws IOException {
        List<String> missing = new ArrayList<>();
        List<String> notFinal = new ArrayList<>();
        List<String> contradicted = new ArrayList<>();
        List<String> twice = new ArrayList<>();
        List<String> unrecorded = new ArrayList<>();
        int starts = 0;
        int retriedJobs = 0;
        for (int job = 0; job < FaultWorkload.JOBS; job++) {
            String name = FaultWorkload.name(job);
            Row row = rows.get(name);
            Long answered = workload.ids.get(job);
            if (row == null || answered == null || answered != row.id()) {
                missing.add(name + ": stored " + (row == null ? "nothing" : "job " + row.id()) + ", submit answered " + answered);
                continue;
            }
            states.merge(row.state(), 1, Integer::sum);
            if (row.state().equals("pending") || row.state().equals("running")) {
                notFinal.add(name + " (job " + row.id() + ") " + row.state() + (row.holdReason() == null ? "" : ", held: " + row.holdReason()));
            }
            List<Start> lines = starts(name);
            starts += lines.size();
            Map<Integer, Integer> perAttempt = new TreeMap<>();
            for (Start start : lines) {
                perAttempt.merge(start.attempt(), 1, Integer::sum);
                if (start.id() != row.id() || !placed.contains(start.id() + " " + start.attempt() + " " + start.token())) {
                    unrecorded.add(name + ": started " + start + ", but queue.db placed no such launch of job " + row.id());
                }
            }
            perAttempt.forEach((attempt, times) -> {
                if (times > 1) {
                    twice.add(name + " attempt " + attempt + " started " + times + " times: " + lines);
                }
            });
            if (perAttempt.size() > 1) {
                retriedJobs++;
            }
            String verdict = exitVerdict(row, job, perAttempt.containsKey(row.attempt()), homes, workload);
            if (verdict != null) {
                contradicted.add(name + " (job " + row.id() + ", " + row.state() + "): " + verdict);
            }
        }
        figures.put("starts", starts);
        figures.put("jobs started in more than one attempt", retriedJobs);
        checks.add(new Check("every job stored once, under the id its submit printed", missing.isEmpty(), missing));
        checks.add(new Check("every job in a final state", notFinal.isEmpty(), notFinal));
        checks.add(new Check("every final state agrees with the exit file on its node", contradicted.isEmpty(), contradicted));
        checks.add(new Check("no attempt started twice", twice.isEmpty(), twice));
        checks.add(new Check("every start is a launch queue.db recorded (job, attempt, token)", unrecorded.isEmpty(), unrecorded));
        duplicates += twice.size();
        losses += missing.size() + notFinal.size() + contradicted.size() + unrecorded.size();
        figures.put("duplicate starts", twice.size());
    }

    /** Why the row's final state contradicts its exit file, or null when it does not. */
    private static String exitVerdict(Row row, int job, boolean started, Map<String, Path> homes, FaultWorkload workload)
            throws IOException {
        double[] exit = row.jobDir() == null || row.node() == null ? null : readExit(homes.get(row.node()), row.jobDir());
        String seen = exit == null ? "no exit file" : "exit file " + (int) exit[0];
        switch (row.state()) {
            case "completed", "failed" -> {
                if (row.exitCode() == null) {
                    return exit == null ? null : "no exit code recorded, but " + seen;
                }
                if (!started) {
                    return "exit code " + row.exitCode() + " recorded for attempt " + row.attempt() + ", which never started";
                }
                if (exit == null || (int) exit[0] != row.exitCode() || row.exitCode() != FaultWorkload.exitCode(job)) {
                    return "recorded exit " + row.exitCode() + ", " + seen + ", the job exits " + FaultWorkload.exitCode(job);
                }
                return null;
            }
            case "cancelled" -> {
                long since = row.startedAt() == null ? 0 : row.startedAt();
                // a cancel that ran on into this attempt may have landed on it; it asked the node after it began
                List<FaultWorkload.Window> landable = workload.cancelRequests.getOrDefault(row.id(), List.of()).stream()
                        .filter(window -> window.ended().toEpochMilli() >= since).toList();
                if (landable.isEmpty()) {
                    return "cancelled, but no cancel ran while this attempt could be cancelled";
                }
                if (exit == null || KILLED.contains((int) exit[0])) {
                    return null;
                }
                long firstAsk = landable.stream().mapToLong(window -> window.started().toEpochMilli()).min().orElseThrow();
                // the job may end by itself after the cancel asked the node and before its kill landed
                return exit[1] * 1000 >= firstAsk - 1000 ? null
                        : seen + " at " + (long) (exit[1] * 1000) + ", before any cancel that could land asked, at " + firstAsk;
            }
            case "lost" -> {
                return exit == null ? null : "lost, but " + seen;
            }
            default -> {
                return null; // pending or running: reported by "every job in a final state"
            }
        }
    }

    private void checkAlerts(List<Long> alertIds, List<Long> undelivered, Path alertsLog) throws IOException {
        Map<Long, Integer> delivered = new TreeMap<>();
        Pattern id = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");
        if (Files.exists(alertsLog)) {
            for (String line : Files.readAllLines(alertsLog)) {
                Matcher matcher = id.matcher(line);
                if (matcher.find()) {
                    delivered.merge(Long.parseLong(matcher.group(1)), 1, Integer::sum);
                }
            }
        }
        List<String> lost = alertIds.stream().filter(alert -> !delivered.containsKey(alert)).map(a -> "alert " + a).toList();
        List<String> twice = delivered.entrySet().stream().filter(e -> e.getValue() > 1)
                .map(e -> "alert " + e.getKey() + " x" + e.getValue()).toList();
        List<String> unknown = delivered.keySet().stream().filter(a -> !alertIds.contains(a)).map(a -> "alert " + a).toList();
        figures.put("alerts raised", alertIds.size());
        figures.put("alert lines in alerts.log", delivered.values().stream().mapToInt(Integer::intValue).sum());
        figures.put("alerts lost", lost.size());
        figures.put("alerts delivered twice", twice.size());
        checks.add(new Check("every alert in queue.db is in alerts.log", lost.isEmpty(), lost));
        checks.add(new Check("no alert delivered twice", twice.isEmpty(), twice));
        checks.add(new Check("alerts.log holds only alerts of queue.db", unknown.isEmpty(), unknown));
        checks.add(new Check("queue.db records every alert delivered on the log channel", undelivered.isEmpty(),
                undelivered.stream().map(a -> "alert " + a).toList()));
        duplicates += twice.size();
        losses += lost.size();
    }

    private static List<Start> starts(String name) throws IOException {
        List<Start> starts = new ArrayList<>();
        for (String line : Files.readAllLines(FaultNodes.STARTS.resolve(name))) {
            Matcher matcher = START.matcher(line);
            if (!matcher.matches()) {
                throw new IOException("unreadable start line of " + name + ": " + line);
            }
            starts.add(new Start(Long.parseLong(matcher.group(1)), Integer.parseInt(matcher.group(2)), matcher.group(3),
                    matcher.group(4)));
        }
        return starts;
    }

    /** {code, finished at (epoch seconds)} from the attempt's exit file, or null when there is none. */
    private static double[] readExit(Path home, String jobDir) throws IOException {
        Path dir = jobDir.startsWith("~/") ? home.resolve(jobDir.substring(2)) : home.resolve(jobDir);
        Path exit = dir.resolve("exit");
        if (!Files.exists(exit)) {
            return null;
        }
        String[] parts = Files.readString(exit).strip().split(" ");
        return new double[] {Integer.parseInt(parts[0]), Double.parseDouble(parts[1])};
    }

    private static int count(Statement sql, String query) throws SQLException {
        try (ResultSet rs = sql.executeQuery(query)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    int passed() {
        return (int) checks.stream().filter(Check::passed).count();
    }

    int failed() {
        return checks.size() - passed();
    }
}
