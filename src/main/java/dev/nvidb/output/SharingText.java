package dev.nvidb.output;

import dev.nvidb.config.NodePolicy;
import dev.nvidb.model.NodeClaims;
import dev.nvidb.model.QueueDemand;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines a node view prints under its GPUs about sharing (docs/sharing.md): the claims
 * directory's error and warnings, the node's policy (or why it is not honoured), and what other
 * queues wait for there. {@code queue nodes}, {@code --once --remote} and both full-screen views
 * print the same lines.
 */
public final class SharingText {

    private SharingText() {
    }

    /** A line to print: a label ("claims:", "policy:", "waiting:"), its text, and whether it warns. */
    public record Line(String label, String text, boolean warn) {
    }

    public static List<Line> lines(NodeClaims claims) {
        List<Line> lines = new ArrayList<>();
        if (claims.error() != null) {
            lines.add(new Line("claims:", claims.error(), true));
        }
        claims.warnings().forEach(warning -> lines.add(new Line("claims:", warning, true)));
        String problem = NodePolicy.problem(claims);
        if (problem != null) {
            lines.add(new Line("policy:", problem, true));
        } else {
            NodePolicy.of(claims).ifPresent(policy -> lines.add(new Line("policy:", policy.describe(), false)));
        }
        for (QueueDemand waiting : claims.foreignDemand()) {
            lines.add(new Line("waiting:", waiting.describe(), false));
        }
        return lines;
    }

    /** Appends each line, indented two spaces, its label styled as a warning where it warns. */
    static void append(StringBuilder out, NodeClaims claims, TextStyle style) {
        for (Line line : lines(claims)) {
            out.append("  ").append(line.warn() ? style.warn(line.label()) : line.label()).append(' ')
                    .append(Printable.of(line.text())).append('\n');
        }
    }
}
