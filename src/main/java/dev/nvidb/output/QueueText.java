package dev.nvidb.output;

import dev.nvidb.model.GpuProcess;
import dev.nvidb.model.GpuSnapshot;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.ClockSkew;
import dev.nvidb.queue.GpuView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.queue.NotifyPass;
import dev.nvidb.queue.NotifyStatus;
import dev.nvidb.scheduler.GpuBudget;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Text for {@code queue nodes} and {@code queue status}: per node a status line and a GPU
 * table whose UNMANAGED, QUEUE, RESERVED and FREE columns are the budget the scheduler uses.
 * Pure; fits 80 columns.
 */
public final class QueueText {

    /** The MODEL column at 80 columns; a wider terminal widens it up to the longest model name. */
    private static final int MODEL_WIDTH = 10;

    private QueueText() {
    }

    public static String nodes(List<NodeView> nodes, boolean processes, Instant now) {
        return nodes(nodes, processes, now, 80, TextStyle.PLAIN);
    }

    /** As {@link #nodes(List, boolean, Instant)} for {@code width} columns, node states painted by {@code style}. */
    public static String nodes(List<NodeView> nodes, boolean processes, Instant now, int width, TextStyle style) {
        int longest = nodes.stream().flatMap(node -> node.gpus().stream())
                .mapToInt(gpu -> gpu.gpu().name() == null ? 0 : model(gpu.gpu().name()).length()).max().orElse(0);
        Layout layout = new Layout(Math.max(MODEL_WIDTH, Math.min(longest, MODEL_WIDTH + Math.max(0, width - 80))),
                Math.max(80, width), style);
        StringBuilder out = new StringBuilder();
        for (NodeView node : nodes) {
            node(out, node, processes, now, layout);
        }
        return out.toString();
    }

    /** Column widths and colour for one rendering. */
    private record Layout(int model, int width, TextStyle style) {
    }

    public static String alerts(List<AlertView> alerts, int width) {
        return alerts(alerts, width, TextStyle.PLAIN);
    }

    /** Open alerts, one line each, painted as warnings by {@code style}. */
    public static String alerts(List<AlertView> alerts, int width, TextStyle style) {
        StringBuilder out = new StringBuilder();
        for (AlertView alert : alerts) {
            out.append(style.warn(Units.fit(Printable.of(String.format(Locale.ROOT, "! %d %s %s", alert.id(),
                    alert.kind(), alert.message())), width))).append('\n');
        }
        return out.toString();
    }

    /**
     * One warning line when the database holds a time from the future by this machine's clock;
     * empty otherwise.
     */
    public static String clockSkew(ClockSkew skew, int width, TextStyle style) {
        if (skew == null) {
            return "";
        }
        String line = "! clock: " + skew.what() + " was recorded " + JobText.ago(skew.recordedAt().minus(skew.ahead()), skew.recordedAt()) + " ahead of this machine's"
                + " clock (a clock was ahead, or this one stepped back); ticks go on, times from the future count as expired";
        return style.warn(Units.fit(line, width)) + "\n";
    }

    /**
     * One warning line per alert delivery channel whose deliveries fail (queue.notify): how
     * many alerts it owes, the latest error, the next try. Empty when none fails.
     */
    public static String delivery(NotifyStatus delivery, Instant now, int width, TextStyle style) {
        if (delivery == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (NotifyStatus.Channel channel : delivery.failing()) {
            String line = "! notify: " + channel.channel() + " failing, " + channel.owed() + " alerts owed ("
                    + channel.failing() + " failed): " + channel.lastError()
                    + (channel.nextAttemptAt() == null ? "" : "; next try " + (channel.nextAttemptAt().isAfter(now)
                    ? "in " + JobText.ago(now, channel.nextAttemptAt()) : "at the next daemon pass"));
            out.append(style.warn(Units.fit(Printable.of(line), width))).append('\n');
        }
        return out.toString();
    }

    /** The daemon's line for a pass's alert delivery; null when it did nothing worth a line. */
    public static String daemonDelivery(NotifyPass delivery, boolean always) {
        if (delivery == null) {
            return null;
        }
        List<String> parts = new java.util.ArrayList<>();
        for (NotifyPass.Channel channel : delivery.channels()) {
            if (!always && channel.delivered() == 0 && channel.failed() == 0 && channel.backlog() == 0) {
                continue;
            }
            StringBuilder part = new StringBuilder(channel.channel() + " " + channel.delivered() + " delivered");
            if (channel.notOwed() > 0) {
                part.append(", ").append(channel.notOwed()).append(" not owed");
            }
            if (channel.backlog() > 0) {
                part.append(", ").append(channel.backlog()).append(" open alerts older than a day not delivered"
                        + " (first pass; see nvidb queue alerts)");
            }
            if (channel.error() != null) {
                part.append(", FAILING (").append(channel.error()).append(")");
            }
            if (channel.owed() > 0) {
                part.append(", ").append(channel.owed()).append(" owed");
            }
            parts.add(part.toString());
        }
        return parts.isEmpty() ? null : Printable.of("notify: " + String.join("; ", parts));
    }

    /** "database 1.5 MiB; last backup 3h ago" (or "no backup yet"); empty without figures. */
    public static String storage(dev.nvidb.queue.QueueStatus.Storage storage, Instant now) {
        if (storage == null) {
            return "";
        }
        double mib = storage.databaseBytes() / 1048576.0;
        String size = mib < 10 ? String.format(Locale.ROOT, "%.1f MiB", mib) : String.format(Locale.ROOT, "%.0f MiB", mib);
        return "database " + size + "; " + (storage.lastBackupAt() == null ? "no backup yet"
                : "last backup " + JobText.ago(storage.lastBackupAt(), now) + " ago") + "\n";
    }

    public static String counts(Map<String, Integer> counts) {
        return counts.entrySet().stream().filter(entry -> entry.getValue() > 0)
                .map(entry -> entry.getValue() + " " + entry.getKey()).collect(Collectors.joining(", "));
    }

    private static void node(StringBuilder out, NodeView node, boolean processes, Instant now, Layout layout) {
        String status = "up".equals(node.status()) ? layout.style().good(node.status())
                : layout.style().bad(Printable.of(node.status()));
        out.append(Printable.of(node.name())).append(" [").append(node.drained() ? status + ", drained" : status)
                .append(node.ignored() ? ", ignored" : "").append(']');
        String host = node.snapshot() == null ? null : node.snapshot().info().hostname();
        if (host != null && !host.equals(node.name())) {
            out.append(' ').append(Printable.of(host));
        }
        out.append(node.lastSeenAt() == null ? "  never seen" : "  seen " + JobText.ago(node.lastSeenAt(), now) + " ago");
        out.append("  ").append(node.runningJobs()).append(node.runningJobs() == 1 ? " job" : " jobs").append('\n');
        if (node.lastError() != null && !"up".equals(node.status())) {
            out.append("  ").append(Printable.of(node.lastError())).append('\n');
        }
        if (node.slurm() != null) {
            out.append("  Slurm ").append(Printable.of(node.slurm())).append('\n');
        }
        if (!node.gpus().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %-4s %-" + layout.model() + "s %4s %11s %10s %6s %6s %4s %6s %s",
                    "GPU", "MODEL", "UTIL", "MEM", "UNMANAGED", "QUEUE", "RSRVD", "JOBS", "FREE", "CLASS")).append('\n');
        }
        for (GpuView gpu : node.gpus()) {
            gpu(out, gpu, layout.model());
            for (var claim : gpu.claims()) {
                if (!claim.ownQueue()) {
                    out.append(Units.fit("       claimed by " + Printable.of(claim.describe(gpu.gpu().uuid())), layout.width()))
                            .append('\n');
                }
            }
            if (processes) {
                for (GpuProcess process : gpu.gpu().processes()) {
                    Long job = gpu.jobOfPid().get(process.pid());
                    out.append(Units.fit(String.format(Locale.ROOT, "       pid %-8d %-10s %7s  %s%s", process.pid(),
                            process.user() == null ? "?" : Units.fit(Printable.of(process.user()), 10),
                            process.memMb() == null ? "n/a" : Units.mebibytes(process.memMb()),
                            job == null ? "" : "job " + job + "  ",
                            Printable.of(process.command() != null ? process.command() : process.name())), layout.width()))
                            .append('\n');
                }
            }
        }
        if (node.snapshot() != null) {
            SharingText.append(out, node.snapshot().claims(), layout.style());
        }
    }

    /** The model without the vendor every card here shares ("NVIDIA H100 80GB HBM3" → "H100 80GB HBM3"). */
    private static String model(String name) {
        return name != null && name.startsWith("NVIDIA ") ? name.substring("NVIDIA ".length()) : name;
    }

    private static void gpu(StringBuilder out, GpuView view, int modelWidth) {
        GpuSnapshot gpu = view.gpu();
        String model = Units.fit(Printable.of(model(gpu.name())), modelWidth);
        if (view.budget() == null) {
            out.append(String.format(Locale.ROOT, "  %-4s %-" + modelWidth + "s %s%n", "GPU" + gpu.index(), model,
                    (gpu.error() == null ? "state unknown" : "error: " + Printable.of(gpu.error()))
                            + " (class unknown: not a placement target)"));
            return;
        }
        GpuBudget budget = view.budget();
        long foreignProcesses = gpu.processes().stream().filter(p -> !view.jobOfPid().containsKey(p.pid())).count();
        String unmanaged = Units.mebibytes(budget.externalMb())
                + ("blind".equals(view.attribution()) ? "(b)" : foreignProcesses > 0 ? "(" + foreignProcesses + "p)" : "");
        out.append(String.format(Locale.ROOT, "  %-4s %-" + modelWidth + "s %4s %11s %10s %6s %6s %4d %6s %s%n",
                "GPU" + gpu.index(), model,
                Units.percent(gpu.utilPercent()), Units.mebibytes(gpu.memUsedMb()) + "/" + Units.mebibytes(gpu.memTotalMb()),
                unmanaged, budget.queueUsedMb() == null ? "-" : Units.mebibytes(budget.queueUsedMb()),
                Units.mebibytes(budget.reservedMb()), budget.jobCount(), Units.mebibytes(Math.max(0, budget.freeMb())),
                view.ownership()));
    }

    /** {@code queue groups}: one row per group with done/total, counts by state, cap and hold. */
    public static String groups(List<dev.nvidb.queue.GroupView> groups) {
        StringBuilder text = new StringBuilder(String.format("%-24s %9s %7s %7s %6s %9s %4s  %s%n", "GROUP", "DONE",
                "PENDING", "RUNNING", "FAILED", "CANCELLED", "CAP", "STATE"));
        for (dev.nvidb.queue.GroupView group : groups) {
            int failed = group.counts().get(dev.nvidb.model.JobState.FAILED) + group.counts().get(dev.nvidb.model.JobState.TIMEOUT)
                    + group.counts().get(dev.nvidb.model.JobState.LOST);
            text.append(String.format("%-24s %9s %7d %7d %6d %9d %4s  %s%n", Printable.of(group.name()),
                    group.done() + "/" + group.total(), group.counts().get(dev.nvidb.model.JobState.PENDING),
                    group.counts().get(dev.nvidb.model.JobState.RUNNING), failed, group.counts().get(dev.nvidb.model.JobState.CANCELLED),
                    group.maxRunning() == null ? "-" : group.maxRunning().toString(),
                    group.held() ? "held: " + Printable.of(group.heldReason()) : "ok"));
        }
        return text.toString();
    }
}
