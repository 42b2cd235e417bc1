package dev.nvidb.agent;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what the no-python3 branch of the probe prints: {@code nvidia-smi} CSV between
 * marker lines (see {@link AgentScript#onceCommand()}). Bracketed values such as
 * {@code [N/A]} and {@code [Not Supported]} become null.
 */
final class SmiCsvParser {

    static final int GPU_FIELDS = 13;

    private SmiCsvParser() {
    }

    static NodeSnapshot parse(String node, String text) {
        String hostname = null;
        String driver = null;
        Integer status = null;
        boolean inProcesses = false;
        List<String> problems = new ArrayList<>();
        List<String[]> gpuRows = new ArrayList<>();
        Map<String, List<GpuProcess>> processesByUuid = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.equals(AgentScript.SMI_MARKER) || line.equals("#end")) {
                continue;
            }
            if (line.startsWith("#hostname ")) {
                hostname = line.substring("#hostname ".length()).strip();
            } else if (line.equals("#no-nvidia-smi")) {
                return new NodeSnapshot(GpuSource.NONE,
                        "NVIDIA driver not found: python3 is not installed and nvidia-smi is not on PATH",
                        hostInfo(hostname), null, null, List.of());
            } else if (line.startsWith("#status ")) {
                status = Integer.valueOf(line.substring("#status ".length()).strip());
            } else if (line.equals("#processes")) {
                inProcesses = true;
            } else if (inProcesses) {
                addProcess(line, processesByUuid);
            } else {
                String[] fields = fields(line);
                if (fields.length == GPU_FIELDS && fields[0].matches("\\d+")) {
                    gpuRows.add(fields);
                    driver = value(fields[12]);
                } else {
                    problems.add(line);
                }
            }
        }
        if (status != null && status != 0 || gpuRows.isEmpty() && !problems.isEmpty()) {
            String why = problems.isEmpty() ? "exit status " + status : problems.get(0);
            return new NodeSnapshot(GpuSource.NONE, "nvidia-smi failed: " + why, hostInfo(hostname), null, null, List.of());
        }
        List<GpuSnapshot> gpus = new ArrayList<>();
        for (String[] row : gpuRows) {
            gpus.add(gpu(row, processesByUuid.getOrDefault(row[1].strip(), List.of())));
        }
        return new NodeSnapshot(GpuSource.NVIDIA_SMI, null, hostInfo(hostname), driver, null, gpus);
    }

    private static NodeInfo hostInfo(String hostname) {
        return new NodeInfo(hostname, null, null, null, null, null, null, null, null, null);
    }

    private static GpuSnapshot gpu(String[] row, List<GpuProcess> processes) {
        Long total = whole(row[4]);
        Long free = whole(row[6]);
        // Used is all that is not free, as the agent reports it: newer drivers leave the memory
        // they reserve out of memory.used, and no job can allocate it.
        Long used = total == null || free == null ? whole(row[5]) : Long.valueOf(Math.max(0, total - free));
        return new GpuSnapshot(Integer.parseInt(row[0]), value(row[1]), value(row[2]), value(row[3]),
                total, used, free, integer(row[7]), integer(row[8]), integer(row[9]),
                decimal(row[10]), decimal(row[11]), null, processes);
    }

    private static void addProcess(String line, Map<String, List<GpuProcess>> byUuid) {
        String[] fields = fields(line);
        if (fields.length < 4) {
            return;
        }
        Long pid = whole(fields[1]);
        if (pid == null) {
            return;
        }
        // A process name can itself contain commas: it is everything between pid and memory.
        String name = String.join(",", Arrays.copyOfRange(fields, 2, fields.length - 1)).strip();
        byUuid.computeIfAbsent(fields[0].strip(), uuid -> new ArrayList<>())
                .add(new GpuProcess(pid, "compute", whole(fields[fields.length - 1]), null, value(name), null));
    }

    private static String[] fields(String line) {
        String[] fields = line.split(",", -1);
        for (int i = 0; i < fields.length; i++) {
            fields[i] = fields[i].strip();
        }
        return fields;
    }

    private static String value(String field) {
        String trimmed = field.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("[") || trimmed.equals("N/A")) {
            return null;
        }
        return trimmed;
    }

    private static Double decimal(String field) {
        String text = value(field);
        if (text == null) {
            return null;
        }
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long whole(String field) {
        Double number = decimal(field);
        return number == null ? null : Math.round(number);
    }

    private static Integer integer(String field) {
        Long number = whole(field);
        return number == null ? null : number.intValue();
    }
}
