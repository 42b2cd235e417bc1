package dev.nvidb.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * A Slurm partition's state as the agent's {@code sinfo -h -p P -o '%R|%a|%F|%C|%G'} printed it (one
 * line per group of nodes alike), for {@code queue nodes}; parsed here, tested without a cluster.
 *
 * @param lines the lines as printed
 * @param error why {@code sinfo} could not say, or null
 */
public record SlurmPartition(List<String> lines, String error) {

    /** The {@code sinfo --format} the agent uses. */
    public static final String SINFO_FORMAT = "%R|%a|%F|%C|%G";

    public SlurmPartition {
        lines = List.copyOf(lines);
    }

    /**
     * One line for people: {@code partition gpu up: nodes 1 allocated, 2 idle, 0 other of 3; CPUs 8 of 96
     * allocated; gpu:4}. Lines that do not parse are shown as printed.
     */
    public String describe() {
        if (error != null) {
            return "sinfo: " + error;
        }
        if (lines.isEmpty()) {
            return "sinfo lists no such partition";
        }
        String name = null;
        String available = null;
        long[] nodes = new long[4];
        long[] cpus = new long[4];
        List<String> gres = new ArrayList<>();
        List<String> odd = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.split("\\|", -1);
            long[] lineNodes = fields.length >= 5 ? counts(fields[2]) : null;
            long[] lineCpus = fields.length >= 5 ? counts(fields[3]) : null;
            if (lineNodes == null || lineCpus == null) {
                odd.add(line);
                continue;
            }
            name = fields[0];
            available = fields[1];
            for (int i = 0; i < 4; i++) {
                nodes[i] += lineNodes[i];
                cpus[i] += lineCpus[i];
            }
            if (!fields[4].isBlank() && !fields[4].equals("(null)") && !gres.contains(fields[4])) {
                gres.add(fields[4]);
            }
        }
        if (name == null) {
            return String.join("; ", odd);
        }
        return "partition " + name + " " + available + ": nodes " + nodes[0] + " allocated, " + nodes[1] + " idle, "
                + nodes[2] + " other of " + nodes[3] + "; CPUs " + cpus[0] + " of " + cpus[3] + " allocated"
                + (gres.isEmpty() ? "" : "; " + String.join(", ", gres));
    }

    /** {@code A/I/O/T} as four numbers, or null. */
    private static long[] counts(String text) {
        String[] parts = text.strip().split("/");
        if (parts.length != 4) {
            return null;
        }
        long[] counts = new long[4];
        try {
            for (int i = 0; i < 4; i++) {
                counts[i] = Long.parseLong(parts[i]);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return counts;
    }
}
