package dev.nvidb.doctor;

import java.util.List;
import java.util.stream.Stream;

/**
 * Everything {@code nvidb doctor} found: one report per node and the database's.
 *
 * @param nodes    the nodes, this machine first
 * @param database the queue database and its keeper
 */
public record Report(List<NodeReport> nodes, DatabaseReport database) {

    public Report {
        nodes = List.copyOf(nodes);
    }

    /** How many checks found a problem. */
    public long problems() {
        return Stream.concat(nodes.stream().flatMap(node -> node.checks().stream()), database.checks().stream())
                .filter(Check::problem).count();
    }

    /** True when something needs attention (the command exits 1). */
    public boolean needsAttention() {
        return problems() > 0;
    }
}
