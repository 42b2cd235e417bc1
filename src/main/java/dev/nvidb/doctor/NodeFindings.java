package dev.nvidb.doctor;

import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The judgements on what a node's probe answered, apart from how it was asked (pure): python3,
 * the GPU source and driver, the clock, free disk under the job root, and /proc's hidepid.
 */
final class NodeFindings {

    /** A node's clock may be this far off (beyond the measurement's own uncertainty) before it needs attention. */
    static final double CLOCK_SKEW_LIMIT_SECONDS = 2.0;
    /** Less free space than this under the job root needs attention. */
    static final long DISK_FREE_LIMIT_MB = 1024;

    /** What the probe gave, with the local wall-clock times (epoch ms) it was sent and answered at. */
    record Probe(NodeSnapshot snapshot, boolean agentAnswered, long sentAtMillis, long answeredAtMillis) {
    }

    private NodeFindings() {
    }

    static List<Check> judge(String node, boolean local, boolean queueNode, Probe probe) {
        List<Check> checks = new ArrayList<>();
        NodeSnapshot snapshot = probe.snapshot();
        NodeInfo info = snapshot.info();
        checks.add(python(node, queueNode, probe.agentAnswered(), info));
        checks.add(gpu(node, local, probe.agentAnswered(), snapshot));
        if (!local && info.clock() != null) {
            checks.add(clock(skew(probe), uncertainty(probe)));
        }
        if (queueNode) {
            checks.add(disk(info));
        }
        if (probe.agentAnswered()) {
            checks.add(proc(info));
        }
        return checks;
    }

    /** The node's clock minus this machine's at the midpoint of the round trip, in seconds; null when unknown. */
    static Double skew(Probe probe) {
        Double clock = probe.snapshot().info().clock();
        return clock == null ? null : clock - (probe.sentAtMillis() + probe.answeredAtMillis()) / 2000.0;
    }

    /** Half the round trip, in seconds: the node read its clock somewhere within it. */
    static double uncertainty(Probe probe) {
        return (probe.answeredAtMillis() - probe.sentAtMillis()) / 2000.0;
    }

    static Check python(String node, boolean queueNode, boolean agentAnswered, NodeInfo info) {
        if (agentAnswered) {
            return Check.ok("python3", "python " + (info.python() == null ? "3" : info.python()));
        }
        String detail = "python3 is missing: the monitor falls back to nvidia-smi"
                + (queueNode ? " and the queue cannot start, watch or stop jobs here" : "");
        String hint = "install python3 on " + node + " (the agent is a standard-library script; nothing else is installed)";
        return queueNode ? Check.problem("python3", detail, hint) : Check.note("python3", detail, hint);
    }

    static Check gpu(String node, boolean local, boolean agentAnswered, NodeSnapshot snapshot) {
        String driver = snapshot.driverVersion() == null ? "driver unknown" : "driver " + snapshot.driverVersion();
        String count = snapshot.gpus().size() + (snapshot.gpus().size() == 1 ? " GPU" : " GPUs");
        List<String> broken = snapshot.gpus().stream().filter(gpu -> gpu.error() != null)
                .map(gpu -> "GPU " + gpu.index() + ": " + gpu.error()).toList();
        if (snapshot.source() == GpuSource.NONE) {
            String detail = "no usable NVIDIA GPU" + (snapshot.error() == null ? "" : ": " + snapshot.error());
            return local ? Check.note("gpu", detail, "this machine can run CPU-only jobs (--gpus 0)")
                    : Check.problem("gpu", detail, "install or repair the NVIDIA driver on " + node
                            + ", or remove the server from the configuration");
        }
        if (!broken.isEmpty()) {
            return Check.problem("gpu", String.join("; ", broken), "a lost GPU usually needs a reboot of " + node
                    + "; nvidia-smi there says more");
        }
        if (snapshot.source() == GpuSource.NVIDIA_SMI) {
            if (!agentAnswered) {
                return Check.note("gpu", "nvidia-smi fallback (no python3), " + driver + ", " + count, null);
            }
            return Check.problem("gpu", "NVML failed" + (snapshot.error() == null ? "" : " (" + snapshot.error() + ")")
                    + "; the nvidia-smi fallback is in use, " + driver + ", " + count,
                    "check that libnvidia-ml.so.1 on " + node + " matches the loaded driver (a driver update needs a"
                            + " reboot or a module reload)");
        }
        return Check.ok("gpu", "NVML, " + driver + ", " + count);
    }

    static Check clock(Double skew, double uncertainty) {
        String detail = String.format(Locale.ROOT, "%+.2f s against this machine (±%.2f s)", skew, uncertainty);
        if (Math.abs(skew) - uncertainty > CLOCK_SKEW_LIMIT_SECONDS) {
            return Check.problem("clock", detail, "synchronise both clocks (chrony or systemd-timesyncd); job start and"
                    + " end times and timeouts are read from the nodes' clocks");
        }
        return Check.ok("clock", detail);
    }

    static Check disk(NodeInfo info) {
        String path = info.diskPath() == null ? "the job root" : info.diskPath();
        if (info.diskFreeMb() == null) {
            return Check.note("disk", "free space under " + path + " is unknown", null);
        }
        String detail = info.diskFreeMb() + " MB free under " + path;
        if (info.diskFreeMb() < DISK_FREE_LIMIT_MB) {
            return Check.problem("disk", detail, "free space under " + path + ": jobs write their logs and results there");
        }
        return Check.ok("disk", detail);
    }

    static Check proc(NodeInfo info) {
        if (info.procHidesOthers() == null) {
            return Check.note("proc", "unknown whether /proc hides other users' processes", null);
        }
        if (info.procHidesOthers()) {
            return Check.note("proc", "/proc is mounted with hidepid=" + info.procHidepid()
                    + ": other users' processes are hidden", "their GPU memory still counts against the cards, but"
                    + " their owner and command show as unknown; the admin can add you to the mount's gid= group");
        }
        return Check.ok("proc", "other users' processes are visible (hidepid=" + info.procHidepid() + ")");
    }
}
