package dev.nvidb.output;

import dev.nvidb.doctor.Check;
import dev.nvidb.doctor.NodeReport;
import dev.nvidb.doctor.Report;
import java.util.List;

/**
 * {@code nvidb doctor} as text: a block per node and one for the database, a line per check
 * marked {@code ✓} (fine), {@code !} (needs attention) or {@code ·} (worth knowing), each
 * problem and note followed by its hint, and a closing line that counts the problems.
 */
public final class DoctorText {

    private static final int NAME_WIDTH = 11;

    private DoctorText() {
    }

    public static String render(Report report, TextStyle style) {
        StringBuilder text = new StringBuilder();
        for (NodeReport node : report.nodes()) {
            text.append(style.on() ? "\033[1m" + Printable.of(node.node()) + "\033[0m" : Printable.of(node.node()))
                    .append(" (").append(Printable.of(node.address())).append(") ")
                    .append(String.join(", ", node.roles())).append('\n');
            checks(text, node.checks(), style);
        }
        text.append("database ").append(Printable.of(report.database().diagnosis().path().toString())).append('\n');
        checks(text, report.database().checks(), style);
        long problems = report.problems();
        text.append('\n').append(problems == 0 ? style.good("nothing needs attention")
                : style.bad(problems + (problems == 1 ? " problem needs" : " problems need") + " attention")).append('\n');
        return text.toString();
    }

    private static void checks(StringBuilder text, List<Check> checks, TextStyle style) {
        for (Check check : checks) {
            String mark = switch (check.status()) {
                case OK -> style.good("✓");
                case PROBLEM -> style.bad("!");
                case NOTE -> style.warn("·");
            };
            text.append("  ").append(mark).append(' ').append(pad(check.name())).append(Printable.of(check.detail()))
                    .append('\n');
            if (check.hint() != null && check.status() != Check.Status.OK) {
                text.append("    ").append(" ".repeat(NAME_WIDTH)).append("hint: ").append(Printable.of(check.hint()))
                        .append('\n');
            }
        }
    }

    private static String pad(String name) {
        return name.length() >= NAME_WIDTH ? name + " " : name + " ".repeat(NAME_WIDTH - name.length());
    }
}
