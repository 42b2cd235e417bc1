package dev.nvidb.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.error.NodeException;
import dev.nvidb.json.Mappers;
import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuClaim;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.QueueDemand;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.model.ProcessStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the agent's reply (docs/agent-protocol.md) into a {@link NodeSnapshot}, or in full into
 * a {@link ProbeReply} with the job parts. A reply that is not the expected document is a
 * {@link NodeException} naming the node and what was wrong, never a partial snapshot.
 */
public final class AgentReplyParser {

    /** The newest reply schema this build understands. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = Mappers.PLAIN;

    private AgentReplyParser() {
    }

    /** Parses one probe's standard output, choosing the JSON or the nvidia-smi CSV reader. */
    public static NodeSnapshot parse(String node, byte[] stdout, byte[] stderr) {
        return parseReply(node, stdout, stderr).snapshot();
    }

    /**
     * Parses one agent exec's standard output in full: the snapshot plus job reports,
     * sessions, launches and kills. The nvidia-smi fallback (no python3 on the node) gives a
     * reply with {@code agentAnswered() == false}.
     */
    public static ProbeReply parseReply(String node, byte[] stdout, byte[] stderr) {
        String text = new String(stdout, StandardCharsets.UTF_8);
        if (text.startsWith(AgentScript.SMI_MARKER)) {
            return ProbeReply.snapshotOnly(SmiCsvParser.parse(node, text));
        }
        JsonNode root = root(node, text, new String(stderr, StandardCharsets.UTF_8));
        return new ProbeReply(snapshot(root), true, JobReplyParser.jobs(root), JobReplyParser.sessions(root),
                JobReplyParser.launches(root), JobReplyParser.kills(root), JobReplyParser.logs(node, root),
                partition(root));
    }

    /** A Slurm node's partition state ({@code slurm}: sinfo's lines or its error), or null. */
    private static SlurmPartition partition(JsonNode root) {
        JsonNode slurm = root.get("slurm");
        if (slurm == null || !slurm.isObject()) {
            return null;
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        slurm.path("lines").forEach(line -> lines.add(line.asText()));
        JsonNode error = slurm.get("error");
        return new SlurmPartition(lines, error == null || error.isNull() ? null : error.asText());
    }

    /** Parses one JSON reply document (one line in serve mode). */
    public static NodeSnapshot parseJson(String node, String text, String stderr) {
        return snapshot(root(node, text, stderr));
    }

    private static JsonNode root(String node, String text, String stderr) {
        JsonNode root;
        try {
            root = text.isBlank() ? null : MAPPER.readTree(text);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.isObject()) {
            throw new NodeException(node + ": the node agent gave no readable answer" + describe(stderr),
                    "run with --verbose, or check that python3 works on the node");
        }
        int version = root.path("schema_version").asInt(-1);
        if (version < 1 || version > SCHEMA_VERSION) {
            throw new NodeException(node + ": the node agent answered with schema version " + version
                    + ", this nvidb understands up to " + SCHEMA_VERSION);
        }
        return root;
    }

    private static NodeSnapshot snapshot(JsonNode root) {
        List<GpuSnapshot> gpus = new ArrayList<>();
        for (JsonNode gpu : root.path("gpus")) {
            gpus.add(gpu(gpu));
        }
        return new NodeSnapshot(source(root.path("source").asText("none")), text(root, "error"),
                info(root.path("node")), text(root, "driver_version"), text(root, "cuda_version"), gpus,
                claims(root.path("claims")));
    }

    /**
     * The node's claims; a claim the agent sent malformed (it checks every one) is left out rather
     * than failing the probe.
     */
    private static NodeClaims claims(JsonNode claims) {
        if (!claims.isObject()) {
            return NodeClaims.NONE;
        }
        List<String> warnings = new ArrayList<>();
        claims.path("warnings").forEach(warning -> warnings.add(warning.asText()));
        List<GpuClaim> live = new ArrayList<>();
        for (JsonNode claim : claims.path("live")) {
            if (!claim.path("user").isTextual() || !claim.path("queue").isTextual() || !claim.path("job").canConvertToLong()
                    || !claim.path("gpus").isArray() || !claim.path("mib").canConvertToLong()) {
                continue;
            }
            List<String> uuids = new ArrayList<>();
            claim.path("gpus").forEach(uuid -> uuids.add(uuid.asText()));
            Map<String, Long> used = new java.util.HashMap<>();
            claim.path("used_mib").fields().forEachRemaining(entry -> used.put(entry.getKey(),
                    Math.max(0, entry.getValue().asLong())));
            live.add(new GpuClaim(claim.path("user").asText(), claim.path("uid").asInt(-1), claim.path("queue").asText(),
                    text(claim, "queue_name"), claim.path("job").asLong(), uuids, Math.max(0, claim.path("mib").asLong()),
                    claim.path("exclusive").asBoolean(false), used, claim.path("mine").asBoolean(false)));
        }
        List<QueueDemand> demand = new ArrayList<>();
        for (JsonNode entry : claims.path("demand")) {
            if (!entry.path("user").isTextual() || !entry.path("queue").isTextual()
                    || !entry.path("waiting").canConvertToInt() || !entry.path("gpus").canConvertToInt()
                    || !entry.path("mib").canConvertToLong() || !entry.path("oldest_at").isNumber()) {
                continue;
            }
            demand.add(new QueueDemand(entry.path("user").asText(), entry.path("uid").asInt(-1),
                    entry.path("queue").asText(), text(entry, "queue_name"), Math.max(0, entry.path("waiting").asInt()),
                    Math.max(0, entry.path("gpus").asInt()), Math.max(0, entry.path("mib").asLong()),
                    entry.path("exclusive").asBoolean(false), entry.path("oldest_at").asLong(),
                    entry.path("mine").asBoolean(false)));
        }
        JsonNode me = claims.path("me");
        NodeClaims.User user = me.path("user").isTextual() && me.path("uid").canConvertToInt()
                ? new NodeClaims.User(me.path("uid").asInt(), me.path("user").asText()) : null;
        return new NodeClaims(text(claims, "dir"), text(claims, "error"), warnings, live, demand,
                text(claims, "policy"), text(claims, "policy_error"), user);
    }

    private static String describe(String stderr) {
        String trimmed = stderr.strip();
        if (trimmed.isEmpty()) {
            return "";
        }
        String[] lines = trimmed.split("\n");
        return ": " + lines[lines.length - 1].strip();
    }

    private static GpuSource source(String value) {
        return switch (value) {
            case "nvml" -> GpuSource.NVML;
            case "nvidia-smi" -> GpuSource.NVIDIA_SMI;
            default -> GpuSource.NONE;
        };
    }

    private static NodeInfo info(JsonNode node) {
        if (!node.isObject()) {
            return NodeInfo.unknown();
        }
        List<Double> load = null;
        if (node.path("load").isArray()) {
            load = new ArrayList<>();
            for (JsonNode value : node.path("load")) {
                load.add(value.asDouble());
            }
        }
        return new NodeInfo(text(node, "hostname"), text(node, "boot_id"), decimal(node, "time"), load,
                integer(node, "cpu_count"), text(node, "disk_path"), whole(node, "disk_free_mb"), text(node, "python"),
                text(node, "proc_hidepid"), bool(node, "proc_hides_others"));
    }

    private static GpuSnapshot gpu(JsonNode gpu) {
        List<GpuProcess> processes = new ArrayList<>();
        for (JsonNode process : gpu.path("processes")) {
            processes.add(process(process));
        }
        return new GpuSnapshot(gpu.path("index").asInt(), text(gpu, "uuid"), text(gpu, "pci_bus_id"), text(gpu, "name"),
                whole(gpu, "mem_total_mb"), whole(gpu, "mem_used_mb"), whole(gpu, "mem_free_mb"),
                integer(gpu, "util_percent"), integer(gpu, "mem_util_percent"), integer(gpu, "temperature_c"),
                decimal(gpu, "power_w"), decimal(gpu, "power_limit_w"), text(gpu, "error"), processes,
                pcie(gpu.path("pcie")));
    }

    /** A process; the host figures an older agent did not send are unknown. */
    private static GpuProcess process(JsonNode process) {
        ProcessStats stats = new ProcessStats(decimal(process, "cpu_percent"), decimal(process, "host_mem_percent"),
                whole(process, "rss_bytes"), whole(process, "elapsed_s"), text(process, "state"),
                integer(process, "threads"));
        return new GpuProcess(process.path("pid").asLong(), process.path("type").asText("compute"),
                whole(process, "mem_mb"), text(process, "user"), text(process, "name"), text(process, "command"),
                bool(process, "command_truncated"), stats);
    }

    /** The PCIe object; missing (an older agent) or not an object means nothing is known. */
    private static PcieSnapshot pcie(JsonNode pcie) {
        if (!pcie.isObject()) {
            return PcieSnapshot.UNKNOWN;
        }
        return new PcieSnapshot(integer(pcie, "link_gen"), integer(pcie, "link_width"), integer(pcie, "max_link_gen"),
                integer(pcie, "max_link_width"), whole(pcie, "rx_kb_s"), whole(pcie, "tx_kb_s"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Boolean bool(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isBoolean() ? null : value.asBoolean();
    }

    private static Long whole(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asLong();
    }

    private static Integer integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asInt();
    }

    private static Double decimal(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asDouble();
    }
}
