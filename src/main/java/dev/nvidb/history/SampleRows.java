package dev.nvidb.history;

import static dev.nvidb.sqlite.Columns.setDouble;
import static dev.nvidb.sqlite.Columns.setInt;
import static dev.nvidb.sqlite.Columns.setLong;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The rows one recorded sample writes besides its own: its node's and GPUs' ids (looked up once,
 * then cached; a GPU's facts written again only when they change), a row per GPU, and each
 * process's span, extended while the process is seen at every sample of its node and begun
 * anew when it comes back after a gap. Used inside {@link GpuLog}'s write transactions.
 */
final class SampleRows {

    private final Map<String, Long> nodeIds = new HashMap<>();
    private final Map<String, Long> gpuIds = new HashMap<>();
    private final Map<String, GpuFacts> gpuFacts = new HashMap<>();
    /** Per node, the process spans its last sample saw: key (GPU, pid, name) to span id. */
    private final Map<String, Map<String, Long>> openSpans = new HashMap<>();

    private record GpuFacts(String name, Long memTotalMb, Double powerLimitW) {
    }

    /** After a rolled-back transaction: ids it wrote may be gone, so they are looked up again. */
    void forgetIds() {
        nodeIds.clear();
        gpuIds.clear();
        gpuFacts.clear();
    }

    /** The spans {@code node}'s latest sample saw: the ones a next sample extends. */
    void spansSeen(String node, Map<String, Long> seen) {
        openSpans.put(node, seen);
    }

    long nodeId(Connection connection, String name) throws SQLException {
        Long cached = nodeIds.get(name);
        if (cached != null) {
            return cached;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT OR IGNORE INTO nodes (name) VALUES (?)");
             PreparedStatement select = connection.prepareStatement("SELECT id FROM nodes WHERE name = ?")) {
            insert.setString(1, name);
            insert.executeUpdate();
            select.setString(1, name);
            try (ResultSet r = select.executeQuery()) {
                r.next();
                long id = r.getLong(1);
                nodeIds.put(name, id);
                return id;
            }
        }
    }

    long gpuId(Connection connection, long nodeId, GpuSnapshot gpu) throws SQLException {
        String uuid = gpu.uuid() == null ? "" : gpu.uuid();
        String key = nodeId + "/" + gpu.index() + "/" + uuid;
        GpuFacts facts = new GpuFacts(gpu.name(), gpu.memTotalMb(), gpu.powerLimitW());
        Long cached = gpuIds.get(key);
        if (cached != null && facts.equals(gpuFacts.get(key))) {
            return cached;
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT OR IGNORE INTO gpus (node_id, gpu_index, uuid) VALUES (?, ?, ?)");
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE gpus SET name = coalesce(?, name), mem_total_mb = coalesce(?, mem_total_mb),"
                             + " power_limit_w = coalesce(?, power_limit_w) WHERE node_id = ? AND gpu_index = ? AND uuid = ?");
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id FROM gpus WHERE node_id = ? AND gpu_index = ? AND uuid = ?")) {
            insert.setLong(1, nodeId);
            insert.setInt(2, gpu.index());
            insert.setString(3, uuid);
            insert.executeUpdate();
            update.setString(1, gpu.name());
            setLong(update, 2, gpu.memTotalMb());
            setDouble(update, 3, gpu.powerLimitW());
            update.setLong(4, nodeId);
            update.setInt(5, gpu.index());
            update.setString(6, uuid);
            update.executeUpdate();
            select.setLong(1, nodeId);
            select.setInt(2, gpu.index());
            select.setString(3, uuid);
            try (ResultSet r = select.executeQuery()) {
                r.next();
                long id = r.getLong(1);
                gpuIds.put(key, id);
                gpuFacts.put(key, facts);
                return id;
            }
        }
    }

    void insertGpuSample(Connection connection, long sampleId, long gpuId, GpuSnapshot gpu) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT OR REPLACE INTO gpu_samples (sample_id, gpu_id,"
                + " util, mem_util, mem_used_mb, temperature_c, power_dw, processes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, sampleId);
            insert.setLong(2, gpuId);
            setInt(insert, 3, gpu.utilPercent());
            setInt(insert, 4, gpu.memUtilPercent());
            setLong(insert, 5, gpu.memUsedMb());
            setInt(insert, 6, gpu.temperatureC());
            setLong(insert, 7, gpu.powerW() == null ? null : Math.round(gpu.powerW() * 10));
            insert.setInt(8, gpu.processes().size());
            insert.executeUpdate();
        }
    }

    void span(Connection connection, String node, long sessionId, long gpuId, GpuProcess process, Instant at,
              Map<String, Long> seen)
            throws SQLException {
        String key = gpuId + "/" + process.pid() + "/" + process.name();
        Long open = openSpans.getOrDefault(node, Map.of()).get(key);
        if (open == null) {
            open = seen.get(key);
        }
        if (open != null) {
            try (PreparedStatement update = connection.prepareStatement("UPDATE process_spans SET last_seen = ?, mem_mb = ?,"
                    + " peak_mem_mb = max(coalesce(peak_mem_mb, ?), coalesce(?, peak_mem_mb)) WHERE id = ?")) {
                update.setLong(1, at.toEpochMilli());
                setLong(update, 2, process.memMb());
                setLong(update, 3, process.memMb());
                setLong(update, 4, process.memMb());
                update.setLong(5, open);
                update.executeUpdate();
            }
            seen.put(key, open);
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO process_spans (session_id, gpu_id, pid, user,"
                + " name, command, first_seen, last_seen, mem_mb, peak_mem_mb) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            insert.setLong(1, sessionId);
            insert.setLong(2, gpuId);
            insert.setLong(3, process.pid());
            insert.setString(4, process.user());
            insert.setString(5, process.name());
            insert.setString(6, process.command());
            insert.setLong(7, at.toEpochMilli());
            insert.setLong(8, at.toEpochMilli());
            setLong(insert, 9, process.memMb());
            setLong(insert, 10, process.memMb());
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                seen.put(key, keys.getLong(1));
            }
        }
    }
}
