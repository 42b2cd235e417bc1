package dev.nvidb.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nvidb.error.NodeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the job parts of an agent reply: job reports, launch and kill outcomes, log chunks and
 * the session table. Entries with an unknown status become the {@code ERROR}/{@code FAILED}
 * value with the odd status named, so a newer agent never breaks an older parser.
 */
final class JobReplyParser {

    private JobReplyParser() {
    }

    static List<JobReport> jobs(JsonNode reply) {
        List<JobReport> reports = new ArrayList<>();
        for (JsonNode job : reply.path("jobs")) {
            if (job.path("status").asText("").equals("slurm")) {
                reports.add(slurm(job));
                continue;
            }
            JobReport.Status status = status(job, JobReport.Status.class, JobReport.Status.ERROR);
            JsonNode result = job.get("result");
            reports.add(new JobReport(job.path("id").asLong(), job.path("attempt").asInt(), status, wrapper(job),
                    integer(job, "exit_code"), instant(job, "finished_at"), text(job, "progress"),
                    result == null || result.isNull() ? null : result.toString(), text(job, "result_error"),
                    text(job, "log_tail"), reason(job, status == JobReport.Status.ERROR), text(job, "failure_log")));
        }
        return reports;
    }

    /**
     * An attempt on a Slurm node: what {@code squeue} (else {@code sacct}) printed of its Slurm job and the
     * batch wrapper's exit status, decided by {@link SlurmStates}. Its identity is the Slurm job id.
     */
    private static JobReport slurm(JsonNode job) {
        long id = job.path("id").asLong();
        int attempt = job.path("attempt").asInt();
        long slurmId = job.path("slurm_job_id").asLong();
        WrapperProcess wrapper = new WrapperProcess(slurmId, slurmId, 0, JobReport.SLURM_BOOT_ID,
                instant(job, "started_at"));
        SlurmJob record;
        try {
            record = job.hasNonNull("squeue") ? SlurmJob.fromSqueue(text(job, "squeue"))
                    : job.hasNonNull("sacct") ? SlurmJob.fromSacct(text(job, "sacct")) : null;
        } catch (IllegalArgumentException e) {
            return new JobReport(id, attempt, JobReport.Status.ERROR, wrapper, null, null, null, null, null, null,
                    e.getMessage(), null, null);
        }
        Integer exitFile = integer(job, "exit_code");
        JsonNode result = job.get("result");
        String resultText = result == null || result.isNull() ? null : result.toString();
        SlurmStates.Kind kind = SlurmStates.of(record, exitFile != null);
        JobReport.Status status = switch (kind) {
            case ACTIVE -> JobReport.Status.RUNNING;
            case EXITED, TIMEOUT, OUT_OF_MEMORY -> JobReport.Status.EXITED;
            case GONE -> JobReport.Status.VANISHED;
            case UNKNOWN -> JobReport.Status.ERROR;
        };
        String reason = switch (kind) {
            case GONE -> record == null ? "Slurm no longer knows job " + slurmId + " and it left no exit status"
                    : "Slurm job " + slurmId + " ended " + record.describe();
            case UNKNOWN -> "Slurm job " + slurmId + " is in a state nvidb does not know: " + record.describe();
            default -> text(job, "reason");
        };
        Integer exitCode = status == JobReport.Status.EXITED ? SlurmStates.exitCode(record, exitFile) : null;
        return new JobReport(id, attempt, status, wrapper, exitCode,
                status == JobReport.Status.EXITED ? instant(job, "finished_at") : null, text(job, "progress"),
                resultText, text(job, "result_error"), text(job, "log_tail"), reason, text(job, "failure_log"), record);
    }

    static List<LaunchReport> launches(JsonNode reply) {
        List<LaunchReport> reports = new ArrayList<>();
        for (JsonNode launch : reply.path("launches")) {
            LaunchReport.Outcome outcome = status(launch, LaunchReport.Outcome.class, LaunchReport.Outcome.FAILED);
            boolean nothingStarted = outcome == LaunchReport.Outcome.FAILED || outcome == LaunchReport.Outcome.LOST;
            String error = nothingStarted ? reason(launch, true) : null;
            reports.add(new LaunchReport(launch.path("id").asLong(), launch.path("attempt").asInt(), outcome,
                    nothingStarted ? null : wrapper(launch), error));
        }
        return reports;
    }

    static List<KillReport> kills(JsonNode reply) {
        List<KillReport> reports = new ArrayList<>();
        for (JsonNode kill : reply.path("kills")) {
            KillReport.Outcome outcome = status(kill, KillReport.Outcome.class, KillReport.Outcome.ERROR);
            reports.add(new KillReport(kill.path("id").asLong(), outcome,
                    reason(kill, outcome == KillReport.Outcome.ERROR)));
        }
        return reports;
    }

    static List<LogChunk> logs(String node, JsonNode reply) {
        List<LogChunk> chunks = new ArrayList<>();
        for (JsonNode log : reply.path("logs")) {
            LogChunk.Status status = status(log, LogChunk.Status.class, LogChunk.Status.ERROR);
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(log.path("data").asText(""));
            } catch (IllegalArgumentException e) {
                throw new NodeException(node + ": the node agent sent log bytes that are not base64");
            }
            long offset = log.path("offset").asLong(0);
            chunks.add(new LogChunk(log.path("id").asLong(), status, bytes, offset,
                    log.path("next_offset").asLong(offset + bytes.length),
                    reason(log, status == LogChunk.Status.ERROR), log.path("cut").asBoolean(false)));
        }
        return chunks;
    }

    static Map<Long, ProcessSession> sessions(JsonNode reply) {
        Map<Long, ProcessSession> sessions = new HashMap<>();
        reply.path("sessions").properties().forEach(entry -> {
            try {
                sessions.put(Long.parseLong(entry.getKey()), new ProcessSession(
                        entry.getValue().path("sid").asLong(), entry.getValue().path("pgid").asLong()));
            } catch (NumberFormatException e) {
                // not a pid: a newer agent's extra entry, ignored
            }
        });
        return sessions;
    }

    /** The wrapper identity in an entry, or null when it has no pid. */
    private static WrapperProcess wrapper(JsonNode entry) {
        JsonNode pid = entry.get("pid");
        if (pid == null || !pid.isNumber()) {
            return null;
        }
        JsonNode pgid = entry.get("pgid");
        return new WrapperProcess(pid.asLong(), pgid != null && pgid.isNumber() ? pgid.asLong() : pid.asLong(),
                entry.path("start_ticks").asLong(), text(entry, "boot_id"), instant(entry, "started_at"));
    }

    private static <E extends Enum<E>> E status(JsonNode entry, Class<E> type, E otherwise) {
        try {
            return Enum.valueOf(type, entry.path("status").asText("").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return otherwise;
        }
    }

    /** The entry's reason, or for an error its message, naming an unknown status if that is all there is. */
    private static String reason(JsonNode entry, boolean failed) {
        String reason = text(entry, failed && entry.hasNonNull("error") ? "error" : "reason");
        if (reason == null && failed) {
            return "the node agent answered status '" + entry.path("status").asText("") + "'";
        }
        return reason;
    }

    private static Instant instant(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isNumber()) {
            return null;
        }
        double seconds = value.asDouble();
        long whole = (long) Math.floor(seconds);
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Integer integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asInt();
    }
}
