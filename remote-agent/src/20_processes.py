# --- processes on this node: /proc facts and CPU use of the GPUs' processes ---------------------

COMMAND_LIMIT = 4096  # characters of a command line; longer ones are cut and flagged
# CPU use is measured over at least this window: two readings of each process's CPU-time
# clock, the first as soon as the process is known, the second at the end of the snapshot
# (waiting for the rest of the window only when the snapshot was quicker). A resident agent
# measures from its previous request's reading instead, with no wait (docs/agent-protocol.md).
CPU_WINDOW_S = 0.05


def read_proc(pid, name, binary=False):
    try:
        with open("/proc/%d/%s" % (pid, name), "rb") as f:
            data = f.read()
    except (IOError, OSError):
        return None
    return data if binary else data.decode("utf-8", "replace").strip()


def process_details(pid, nvml_name=None):
    """Owner, name and command line of a process from /proc (None when gone). A command line
    longer than COMMAND_LIMIT characters is cut there, with command_truncated true."""
    user = None
    try:
        uid = os.stat("/proc/%d" % pid).st_uid
        try:
            user = pwd.getpwuid(uid).pw_name
        except KeyError:
            user = str(uid)
    except OSError:
        pass
    command = read_proc(pid, "cmdline", binary=True)
    truncated = None
    if command is not None:
        command = command.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
        truncated = len(command) > COMMAND_LIMIT
        command = command[:COMMAND_LIMIT] or None
    return {"user": user, "name": read_proc(pid, "comm") or nvml_name, "command": command,
            "command_truncated": truncated if command is not None else None}


class HostFacts(object):
    """What per-process figures are measured against, read once per snapshot."""

    def __init__(self):
        self.page_size = os.sysconf("SC_PAGE_SIZE")
        self.clock_ticks = os.sysconf("SC_CLK_TCK")
        self.mem_total = None
        for line in (read_proc_file("/proc/meminfo") or "").splitlines():
            if line.startswith("MemTotal:"):
                self.mem_total = int(line.split()[1]) * 1024  # the kernel's kB are KiB
        uptime = read_proc_file("/proc/uptime")
        self.uptime = float(uptime.split()[0]) if uptime else None


def read_proc_file(path):
    try:
        with open(path) as f:
            return f.read()
    except (IOError, OSError, ValueError):
        return None


PROCESS_STATS = ("cpu_percent", "host_mem_percent", "rss_bytes", "elapsed_s", "state", "threads")


def process_stats(pid, host):
    """({state, threads, rss_bytes, host_mem_percent, elapsed_s}, start_ticks) of a process
    from /proc/PID/stat and statm; every figure None (and start_ticks None) when it is gone."""
    stats = dict.fromkeys(PROCESS_STATS)
    data = read_proc(pid, "stat")
    fields = data[data.rfind(")") + 2:].split() if data else []  # the name in (...) may hold spaces
    try:
        state, threads, start = fields[0], int(fields[17]), int(fields[19])
    except (IndexError, ValueError):
        return stats, None
    stats["state"], stats["threads"] = state, threads
    # Resident pages from statm, which newer kernels sum exactly (as VmRSS); stat's rss field
    # may lag by per-CPU counter batches.
    statm = (read_proc(pid, "statm") or "").split()
    try:
        stats["rss_bytes"] = int(statm[1]) * host.page_size
    except (IndexError, ValueError):
        pass
    if host.mem_total and stats["rss_bytes"] is not None:
        stats["host_mem_percent"] = round(100.0 * stats["rss_bytes"] / host.mem_total, 2)
    if host.uptime is not None:
        stats["elapsed_s"] = max(0, int(host.uptime - float(start) / host.clock_ticks))
    return stats, start


def cpu_seconds(pid):
    """CPU time a process used so far (user + system, every thread, living or ended), from its
    CPU-time clock: nanosecond accounting in one system call, where /proc/PID/stat counts
    10 ms ticks, too coarse for a short window. The clock id is Linux's
    MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), what glibc's clock_getcpuclockid returns;
    reading it needs no permission. None when the process is gone."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)
    except (OSError, OverflowError, AttributeError):
        return None


class CpuMeter(object):
    """CPU use of processes as a percentage of one core (top's %CPU: 200 is two busy cores),
    averaged over a window: from this agent's reading of the same process (pid and start
    time) in its previous request, else from a reading taken earlier in this request, waiting
    until the window is at least CPU_WINDOW_S long."""

    def __init__(self):
        self.previous = {}  # (pid, start_ticks) -> (cpu seconds, monotonic seconds)
        self.first = {}

    def begin(self, key):
        if key not in self.first:
            cpu = cpu_seconds(key[0])
            if cpu is not None:
                self.first[key] = (cpu, time.monotonic())

    def finish(self):
        """{(pid, start_ticks): percent} for the processes begun since the last finish."""
        bases = dict((key, self.previous.get(key, sample)) for key, sample in self.first.items())
        if bases:
            wait = max(t for _, t in bases.values()) + CPU_WINDOW_S - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        percents, samples = {}, {}
        for key, (cpu_before, before) in bases.items():
            cpu, now = cpu_seconds(key[0]), time.monotonic()
            if cpu is not None and now > before:
                percents[key] = round(100.0 * max(0.0, cpu - cpu_before) / (now - before), 1)
                samples[key] = (cpu, now)
        self.previous, self.first = samples, {}
        return percents


def describe_processes(reply, meter, during=None):
    """Adds host figures (state, threads, RSS, share of host memory, age, CPU use) to every
    GPU process of the reply; a process on several GPUs is measured once. during() runs
    while the CPU window is open, so other waits (PCIe sampling) overlap with it."""
    host = HostFacts()
    measured = {}
    for gpu in reply["gpus"]:
        for process in gpu["processes"]:
            pid = process["pid"]
            if pid not in measured:
                measured[pid] = process_stats(pid, host)
                if measured[pid][1] is not None:
                    meter.begin((pid, measured[pid][1]))
    if during is not None:
        during()
    percents = meter.finish()
    for gpu in reply["gpus"]:
        for process in gpu["processes"]:
            stats, start = measured[process["pid"]]
            process.update(stats)
            process["cpu_percent"] = percents.get((process["pid"], start))
