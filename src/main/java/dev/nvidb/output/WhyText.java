package dev.nvidb.output;

import dev.nvidb.model.Job;
import dev.nvidb.queue.WhyView;
import dev.nvidb.scheduler.Explanation;
import dev.nvidb.scheduler.Explanation.GpuVerdict;
import dev.nvidb.scheduler.Explanation.NodeVerdict;
import dev.nvidb.scheduler.GpuBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code job why} as text, within 80 columns: the outcome, what blocks the job, where it would
 * fit first, its dependencies, then every node with a line per GPU: total, foreign memory, what
 * the queue is charged there, and what is free for this job (after the headroom), in MiB.
 */
public final class WhyText {

    static final int WIDTH = 80;

    private WhyText() {
    }

    public static String render(WhyView view, Instant now) {
        Job job = view.job().job();
        String title = "job " + job.id() + " (" + Printable.of(job.spec().name()) + ")";
        Explanation explanation = view.explanation();
        if (explanation == null) {
            return notPending(title, job);
        }
        List<String> lines = new ArrayList<>();
        wrap(lines, "", title + " " + outcome(explanation));
        wrap(lines, "", "needs " + needs(explanation) + "; " + explanation.policy().placement().name()
                .toLowerCase(Locale.ROOT) + ", " + explanation.policy().headroomMb() + " MiB headroom per GPU");
        if (!explanation.blockers().isEmpty()) {
            lines.add("");
            lines.add("blocked by:");
            explanation.blockers().forEach(blocker -> wrap(lines, "  ", Printable.of(blocker.message())));
        }
        lines.add("");
        wrap(lines, "", "would start: " + Printable.of(explanation.fit().message()));
        if (!explanation.dependencies().isEmpty()) {
            lines.add("");
            lines.add("dependencies:");
            explanation.dependencies().forEach(dependency -> lines.add(String.format(Locale.ROOT, "  %-8s %-11s %-10s %s",
                    dependency.jobId(), dependency.needsSuccess() ? "--after" : "--after-any",
                    dependency.state() == null ? "purged" : dependency.held() ? "held" : dependency.state().key(),
                    dependency.verdict().key())));
        }
        lines.add("");
        lines.add("nodes (MiB, as each last answered; free = total - foreign - queue - headroom):");
        for (NodeVerdict node : explanation.nodes()) {
            node(lines, node, view.lastSeen().get(node.node()), now);
        }
        return String.join("\n", lines) + "\n";
    }

    private static String notPending(String title, Job job) {
        String state = job.state().key();
        if (job.state() == dev.nvidb.model.JobState.RUNNING && job.assignment() != null && job.progress() != null
                && job.progress().startsWith("Slurm job ")) {
            // Handed to a Slurm node: whether it waits there is Slurm's call, and Slurm's reason says why.
            List<String> lines = new ArrayList<>();
            wrap(lines, "", title + " is running on Slurm node " + Printable.of(job.assignment().node()) + ": "
                    + Printable.of(job.progress()));
            return String.join("\n", lines) + "\n";
        }
        StringBuilder text = new StringBuilder(title + " is " + state + ", not pending: nothing to explain");
        if (job.assignment() != null && job.state() == dev.nvidb.model.JobState.RUNNING) {
            text.append(" (on ").append(Printable.of(job.assignment().node())).append(")");
        } else if (job.lastError() != null) {
            text.append("\n").append(Printable.of(job.lastError()));
        }
        List<String> lines = new ArrayList<>();
        text.toString().lines().forEach(line -> wrap(lines, "", line));
        return String.join("\n", lines) + "\n";
    }

    private static String outcome(Explanation explanation) {
        return switch (explanation.outcome()) {
            case STARTS -> "starts with the next tick";
            case WAITS -> "waits: " + Printable.of(explanation.reason());
            case NEVER -> "can never run: " + Printable.of(explanation.reason());
            case DEPENDENCY_FAILED -> "will fail: " + Printable.of(explanation.reason());
        };
    }

    private static String needs(Explanation explanation) {
        String what = explanation.gpus() == 0 ? "no GPU (CPU only)"
                : explanation.gpus() + (explanation.gpus() == 1 ? " GPU" : " GPUs on one node")
                + (explanation.vramMb() > 0 ? " with " + explanation.vramMb() + " MiB" + (explanation.gpus() == 1 ? "" : " each")
                : " (no memory reserved)");
        return explanation.node() == null ? what : what + " on " + Printable.of(explanation.node()) + " (--node)";
    }

    private static void node(List<String> lines, NodeVerdict node, Instant lastSeen, Instant now) {
        String seen = lastSeen == null ? "" : " (answered " + JobText.ago(lastSeen, now) + " ago)";
        wrap(lines, "  ", Printable.of(node.node()) + ": " + node.kind().key().replace('_', ' ') + ": "
                + Printable.of(node.message()) + seen);
        if (node.gpus().isEmpty() || node.kind() == Explanation.NodeKind.NOT_PINNED
                || node.kind() == Explanation.NodeKind.IGNORED) {
            return;
        }
        lines.add("     GPU   TOTAL FOREIGN   QUEUE    FREE  VERDICT");
        for (GpuVerdict gpu : node.gpus()) {
            GpuBudget budget = gpu.budget();
            String queue = budget == null ? "-" : String.valueOf(budget.chargedMb() + gpu.plannedMb());
            String row = String.format(Locale.ROOT, "    %4d %7s %7s %7s %7s  ", gpu.index(), mib(gpu.totalMb()),
                    budget == null ? "-" : String.valueOf(budget.externalMb()), queue,
                    gpu.freeMb() == null ? "-" : String.valueOf(Math.max(0, gpu.freeMb())));
            lines.add(row + Units.fit(gpu.message(), WIDTH - row.length()));
            for (String claim : gpu.claims()) {
                wrap(lines, "          ", "claimed by " + Printable.of(claim));
            }
        }
    }

    private static String mib(Long value) {
        return value == null ? "-" : String.valueOf(value);
    }

    /** Adds {@code text} as lines of at most {@link #WIDTH} columns, broken at spaces, continued with an indent. */
    static void wrap(List<String> lines, String indent, String text) {
        String rest = text;
        String prefix = indent;
        while (prefix.length() + rest.length() > WIDTH) {
            int room = WIDTH - prefix.length();
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= 0) {
                break; // one word longer than the line: leave it whole
            }
            lines.add(prefix + rest.substring(0, cut));
            rest = rest.substring(cut + 1);
            prefix = indent + "    ";
        }
        lines.add(prefix + rest);
    }
}
