# nvidb node agent: answers JSON requests about this node's GPUs (docs/agent-protocol.md).
# Python 3.6+ standard library only: it is streamed to the node over SSH at every use and
# run with exec(), so it must not rely on __file__, installed packages or newer syntax.
# Stdout carries protocol replies only; diagnostics go to stderr.
# Modules only some requests need (base64, shutil, subprocess) are imported where they are
# used: every agent start pays for what is imported here.
import ctypes
import errno
import fcntl
import json
import os
import pwd
import signal
import stat as statmod
import sys
import threading
import time

SCHEMA_VERSION = 1
MIB = 1048576
NOT_AVAILABLE = 0xFFFFFFFFFFFFFFFF  # NVML_VALUE_NOT_AVAILABLE for usedGpuMemory
COMMAND_LIMIT = 4096  # characters of a command line; longer ones are cut and flagged
NVML_LIBRARIES = ("libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1")
SMI_TIMEOUT_S = 20

# Values from nvml.h (docs/agent-protocol.md, "NVML audit against nvml.h").
NVML_SUCCESS = 0
NVML_ERROR_NO_PERMISSION = 4
NVML_ERROR_NOT_FOUND = 6
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25
NVML_DEVICE_MIG_ENABLE = 1
NVML_PCIE_UTIL_TX_BYTES = 0  # nvmlPcieUtilCounter_t: what the GPU sends
NVML_PCIE_UTIL_RX_BYTES = 1  # what it receives
# CPU use is measured over at least this window: two readings of each process's CPU-time
# clock, the first as soon as the process is known, the second at the end of the snapshot
# (waiting for the rest of the window only when the snapshot was quicker). A resident agent
# measures from its previous request's reading instead, with no wait (docs/agent-protocol.md).
CPU_WINDOW_S = 0.05
# Errors that only mean "this field is not available here": the field becomes null and
# the GPU stays healthy. Any other error marks the GPU as failed (its state is unknown).
# NOT_SUPPORTED, NO_PERMISSION, NOT_FOUND, FUNCTION_NOT_FOUND, DEPRECATED
FIELD_ONLY_ERRORS = (3, 4, 6, 13, 26)

SMI_GPU_FIELDS = ("index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,"
                  "utilization.gpu,utilization.memory,temperature.gpu,power.draw,"
                  "power.limit,driver_version")
SMI_APP_FIELDS = "gpu_uuid,pid,process_name,used_memory"


class NvmlError(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong),
                ("used", ctypes.c_ulonglong)]


class MemoryV2(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("total", ctypes.c_ulonglong),
                ("reserved", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong),
                ("used", ctypes.c_ulonglong)]


MEMORY_V2_VERSION = ctypes.sizeof(MemoryV2) | (2 << 24)  # NVML_STRUCT_VERSION(Memory, 2)


class Utilization(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class PciInfo(ctypes.Structure):
    _fields_ = [("busIdLegacy", ctypes.c_char * 16), ("domain", ctypes.c_uint),
                ("bus", ctypes.c_uint), ("device", ctypes.c_uint),
                ("pciDeviceId", ctypes.c_uint), ("pciSubSystemId", ctypes.c_uint),
                ("busId", ctypes.c_char * 32)]


class ProcessInfoV1(ctypes.Structure):
    """nvmlProcessInfo_v1_t: the entries of the unversioned process calls."""
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong)]


class ProcessInfoV2(ctypes.Structure):
    """nvmlProcessInfo_v2_t: the entries of the _v2 calls, and of _v3 as nvml.h 12.2.140 has it."""
    _fields_ = ProcessInfoV1._fields_ + [("gpuInstanceId", ctypes.c_uint),
                                         ("computeInstanceId", ctypes.c_uint)]


class ProcessDetailV1(ctypes.Structure):
    """nvmlProcessDetail_v1_t: the nvmlProcessInfo_t of nvml.h 12.2.81, which some R535 drivers
    write from their _v3 calls."""
    _fields_ = ProcessInfoV2._fields_ + [("usedGpuCcProtectedMemory", ctypes.c_ulonglong)]


class Nvml(object):
    """A loaded and initialised NVML; device handles are cached across requests."""

    def __init__(self, lib):
        self.lib = lib
        self.handles = {}
        error_string = self.symbol("nvmlErrorString")
        if error_string is not None:
            error_string.restype = ctypes.c_char_p
        self.error_string = error_string

    def symbol(self, name):
        # A symbol the driver lacks is skipped, never fatal (older drivers, WSL).
        try:
            return getattr(self.lib, name)
        except AttributeError:
            return None

    def message(self, code):
        if self.error_string is not None:
            text = self.error_string(code)
            if text:
                return text.decode("utf-8", "replace")
        return "NVML error %d" % code

    def call(self, name, *args):
        """Calls the first of the names (a tuple means fallbacks) that the driver has;
        returns False when none exists, raises NvmlError on failure."""
        for candidate in (name if isinstance(name, tuple) else (name,)):
            function = self.symbol(candidate)
            if function is None:
                continue
            code = function(*args)
            if code != NVML_SUCCESS:
                raise NvmlError(code, self.message(code))
            return True
        return False

    def string(self, name, *args):
        buffer = ctypes.create_string_buffer(256)
        if not self.call(name, *(args + (buffer, ctypes.c_uint(256)))):
            return None
        return buffer.value.decode("utf-8", "replace")

    def uint(self, name, *args):
        value = ctypes.c_uint()
        if not self.call(name, *(args + (ctypes.byref(value),))):
            return None
        return value.value

    def handle(self, index):
        if index not in self.handles:
            handle = ctypes.c_void_p()
            self.call(("nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"),
                      ctypes.c_uint(index), ctypes.byref(handle))
            self.handles[index] = handle
        return self.handles[index]


def load_nvml():
    """Returns (Nvml or None, error message or None)."""
    errors = []
    lib = None
    for path in NVML_LIBRARIES:
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append(str(e))
    if lib is None:
        return None, "cannot load libnvidia-ml.so.1 (%s)" % "; ".join(errors[:1])
    nvml = Nvml(lib)
    try:
        if not nvml.call(("nvmlInit_v2", "nvmlInit")):
            return None, "NVML init failed: no nvmlInit in libnvidia-ml.so.1"
    except NvmlError as e:
        return None, "NVML init failed: %s" % e
    return nvml, None


def optional(function, *args):
    """A field's value, or None when the driver lacks or does not support it."""
    try:
        return function(*args)
    except NvmlError as e:
        if e.code in FIELD_ONLY_ERRORS:
            return None
        raise


def informative(function, *args):
    """A value that is nice to have (versions): None on any NVML failure."""
    try:
        return function(*args)
    except NvmlError:
        return None


def cuda_version(nvml):
    value = ctypes.c_int()
    if informative(nvml.call, ("nvmlSystemGetCudaDriverVersion_v2",
                               "nvmlSystemGetCudaDriverVersion"), ctypes.byref(value)):
        return "%d.%d" % (value.value // 1000, value.value % 1000 // 10)
    return None


def memory(nvml, handle, gpu):
    v2 = MemoryV2(version=MEMORY_V2_VERSION)
    try:
        has_v2 = nvml.call("nvmlDeviceGetMemoryInfo_v2", handle, ctypes.byref(v2))
    except NvmlError as e:
        # A driver that exports _v2 but rejects it (other struct version): use v1.
        if e.code not in FIELD_ONLY_ERRORS + (NVML_ERROR_ARGUMENT_VERSION_MISMATCH,):
            raise
        has_v2 = False
    if has_v2:
        gpu["mem_reserved_mb"] = v2.reserved // MIB
        total, free = v2.total, v2.free
    else:
        v1 = Memory()
        # Not optional(): placement needs memory, so any failure here is the GPU's error.
        if not nvml.call("nvmlDeviceGetMemoryInfo", handle, ctypes.byref(v1)):
            return
        total, free = v1.total, v1.free
    gpu["mem_total_mb"] = total // MIB
    gpu["mem_free_mb"] = free // MIB
    # Used is all that is not free: v1's used counts the memory the driver reserves, v2's
    # leaves it out (reported apart); no job can allocate it either way.
    gpu["mem_used_mb"] = max(0, gpu["mem_total_mb"] - gpu["mem_free_mb"])


SENTINEL = 0xA5


def process_list(nvml, handle, kind):
    """[(pid, used bytes or None)] from the newest process call the driver has, or None.

    The _v3 entry differs between drivers: ProcessInfoV2 (24 bytes, nvml.h 12.2.140), or
    ProcessDetailV1 (32) on some R535 drivers built from nvml.h 12.2.81. The buffer is pre-filled
    with a sentinel byte and sized for 32-byte entries; a driver writing n entries of 24 bytes
    leaves bytes [24n, 32n) untouched, one writing 32-byte entries overwrites them (its last
    entries). So any non-sentinel byte there means 32-byte entries.
    """
    base = "nvmlDeviceGet%sRunningProcesses" % kind
    for suffix, entry in (("_v3", None), ("_v2", ProcessInfoV2), ("", ProcessInfoV1)):
        function = nvml.symbol(base + suffix)
        if function is not None:
            break
    else:
        return None
    widest = ctypes.sizeof(ProcessDetailV1)
    capacity = 32
    for _ in range(5):  # processes may start between the sizing call and the next one
        size = capacity * widest
        buffer = ctypes.create_string_buffer(size)
        ctypes.memset(buffer, SENTINEL, size)
        count = ctypes.c_uint(capacity)
        code = function(handle, ctypes.byref(count), buffer)
        if code == NVML_ERROR_INSUFFICIENT_SIZE:
            # count is what the list needed then; doubling outgrows a list that keeps growing.
            capacity = max(2 * capacity, count.value + 16)
            continue
        if code != NVML_SUCCESS:
            raise NvmlError(code, nvml.message(code))
        raw, n = buffer.raw, min(count.value, capacity)
        if entry is None:
            tail = raw[ctypes.sizeof(ProcessInfoV2) * n:widest * n]
            entry = ProcessDetailV1 if tail.count(SENTINEL) != len(tail) else ProcessInfoV2
        stride = ctypes.sizeof(entry)
        result = []
        for i in range(n):
            info = entry.from_buffer_copy(raw, i * stride)
            used = info.usedGpuMemory
            result.append((info.pid, None if used == NOT_AVAILABLE else used))
        return result
    raise NvmlError(NVML_ERROR_INSUFFICIENT_SIZE, "process list kept growing")


def device_processes(nvml, handle, kind):
    """process_list() of a GPU. A MIG-enabled GPU answers the list of all its instances only
    to a privileged caller (NO_PERMISSION otherwise, nvml.h); its MIG devices are then asked
    one by one."""
    try:
        return process_list(nvml, handle, kind)
    except NvmlError as e:
        if e.code != NVML_ERROR_NO_PERMISSION or not mig_enabled(nvml, handle):
            raise
    count = ctypes.c_uint()
    informative(nvml.call, "nvmlDeviceGetMaxMigDeviceCount", handle, ctypes.byref(count))
    found = []
    for index in range(count.value):
        mig = ctypes.c_void_p()
        try:
            nvml.call("nvmlDeviceGetMigDeviceHandleByIndex", handle, ctypes.c_uint(index),
                      ctypes.byref(mig))
        except NvmlError as e:
            if e.code == NVML_ERROR_NOT_FOUND:  # no MIG device at this index
                continue
            raise
        found.extend(process_list(nvml, mig, kind) or [])
    return found


def mig_enabled(nvml, handle):
    current, pending = ctypes.c_uint(), ctypes.c_uint()
    return bool(informative(nvml.call, "nvmlDeviceGetMigMode", handle, ctypes.byref(current),
                            ctypes.byref(pending))) and current.value == NVML_DEVICE_MIG_ENABLE


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


def gpu_processes(nvml, handle):
    found = {}
    order = []
    for kind in ("Compute", "Graphics"):
        entries = optional(device_processes, nvml, handle, kind) or []
        for pid, used in entries:
            if pid not in found:
                order.append(pid)
                found[pid] = {"pid": pid, "type": kind.lower(), "mem_b": used}
            else:
                entry = found[pid]
                if kind.lower() not in entry["type"]:
                    entry["type"] += "+" + kind.lower()
                # Both lists report the process's whole use on this GPU: take it once.
                if used is not None:
                    entry["mem_b"] = max(entry["mem_b"] or 0, used)
    processes = []
    for pid in order:
        entry = found.pop(pid)
        used = entry.pop("mem_b")
        entry["mem_mb"] = None if used is None else used // MIB
        details = process_details(pid)
        if details["name"] is None:
            details["name"] = informative(nvml.string, "nvmlSystemGetProcessName",
                                          ctypes.c_uint(pid))
        entry.update(details)
        processes.append(entry)
    return processes


PCIE_FIELDS = ("link_gen", "link_width", "max_link_gen", "max_link_width", "rx_kb_s", "tx_kb_s")


def empty_gpu(index):
    gpu = {"index": index}
    for key in ("uuid", "pci_bus_id", "name", "mem_total_mb", "mem_used_mb", "mem_free_mb",
                "mem_reserved_mb", "util_percent", "mem_util_percent", "temperature_c",
                "power_w", "power_limit_w", "error"):
        gpu[key] = None
    gpu["pcie"] = dict.fromkeys(PCIE_FIELDS)
    gpu["processes"] = []
    return gpu


def pcie_link(nvml, handle, pcie):
    """The link the GPU runs at now and the widest its card and slot allow. Each figure is
    nice to have: any NVML error leaves it None and never fails the GPU."""
    for key, name in (("link_gen", "nvmlDeviceGetCurrPcieLinkGeneration"),
                      ("link_width", "nvmlDeviceGetCurrPcieLinkWidth"),
                      ("max_link_gen", "nvmlDeviceGetMaxPcieLinkGeneration"),
                      ("max_link_width", "nvmlDeviceGetMaxPcieLinkWidth")):
        pcie[key] = informative(nvml.uint, name, handle)


class PcieSampler(object):
    """Reads the PCIe RX and TX throughput (KB/s) of every healthy GPU, one thread per
    reading: the driver counts bytes for 20 ms before each answer, so one after another
    would cost 40 ms per GPU. ctypes releases the GIL during the calls and NVML is
    thread-safe. Any NVML error leaves that reading None."""

    def __init__(self, nvml, gpus):
        self.threads = []
        for gpu in gpus:
            if gpu["error"] is None:
                for key, counter in (("rx_kb_s", NVML_PCIE_UTIL_RX_BYTES),
                                     ("tx_kb_s", NVML_PCIE_UTIL_TX_BYTES)):
                    thread = threading.Thread(target=self.read, args=(nvml, gpu, key, counter))
                    thread.daemon = True  # a hung driver must not keep the agent from exiting
                    self.threads.append(thread)

    @staticmethod
    def read(nvml, gpu, key, counter):
        try:
            gpu["pcie"][key] = informative(nvml.uint, "nvmlDeviceGetPcieThroughput",
                                           nvml.handle(gpu["index"]), ctypes.c_int(counter))
        except Exception:  # a thread's failure must only cost its one figure
            gpu["pcie"][key] = None

    def run(self):
        for thread in self.threads:
            thread.start()
        for thread in self.threads:
            thread.join()


def nvml_gpu(nvml, index):
    gpu = empty_gpu(index)
    try:
        handle = nvml.handle(index)
        gpu["uuid"] = optional(nvml.string, "nvmlDeviceGetUUID", handle)
        gpu["name"] = optional(nvml.string, "nvmlDeviceGetName", handle)
        pci = PciInfo()
        if optional(nvml.call, ("nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"),
                    handle, ctypes.byref(pci)):
            gpu["pci_bus_id"] = pci.busId.decode("ascii", "replace")
        memory(nvml, handle, gpu)
        rates = Utilization()
        if optional(nvml.call, "nvmlDeviceGetUtilizationRates", handle, ctypes.byref(rates)):
            gpu["util_percent"], gpu["mem_util_percent"] = rates.gpu, rates.memory
        gpu["temperature_c"] = optional(nvml.uint, "nvmlDeviceGetTemperature", handle,
                                        ctypes.c_int(0))  # NVML_TEMPERATURE_GPU
        power = optional(nvml.uint, "nvmlDeviceGetPowerUsage", handle)
        gpu["power_w"] = None if power is None else power / 1000.0
        limit = optional(nvml.uint, ("nvmlDeviceGetEnforcedPowerLimit",
                                     "nvmlDeviceGetPowerManagementLimit"), handle)
        gpu["power_limit_w"] = None if limit is None else limit / 1000.0
        pcie_link(nvml, handle, gpu["pcie"])
        gpu["processes"] = gpu_processes(nvml, handle)
    except NvmlError as e:
        # A failed GPU keeps what was read before the error; the rest stays null.
        gpu["error"] = str(e)
    return gpu


def nvml_reply(nvml, reply):
    reply["source"] = "nvml"
    reply["driver_version"] = informative(nvml.string, "nvmlSystemGetDriverVersion")
    reply["nvml_version"] = informative(nvml.string, "nvmlSystemGetNVMLVersion")
    reply["cuda_version"] = cuda_version(nvml)
    count = ctypes.c_uint()
    try:
        nvml.call(("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"), ctypes.byref(count))
    except NvmlError as e:
        reply["error"] = "NVML device count failed: %s" % e
        return
    reply["gpus"] = [nvml_gpu(nvml, index) for index in range(count.value)]


def smi_value(text, convert=None):
    text = text.strip()
    if not text or text.startswith("[") or text in ("N/A", "Not Supported"):
        return None
    if convert is None:
        return text
    try:
        return convert(text)
    except ValueError:
        return None


def run_smi(fields):
    """Lines of one CSV query; raises RuntimeError with the tool's own words on failure."""
    import subprocess
    try:
        result = subprocess.run(["nvidia-smi", fields, "--format=csv,noheader,nounits"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, timeout=SMI_TIMEOUT_S)
    except OSError:
        raise RuntimeError("nvidia-smi is not on PATH")
    except subprocess.TimeoutExpired:
        raise RuntimeError("nvidia-smi did not answer within %d s" % SMI_TIMEOUT_S)
    output = result.stdout.decode("utf-8", "replace")
    if result.returncode != 0:
        words = (output.strip() or result.stderr.decode("utf-8", "replace").strip())
        raise RuntimeError("nvidia-smi failed (exit %d): %s"
                           % (result.returncode, " ".join(words.split())[:400]))
    return [line for line in output.splitlines() if line.strip()]


def smi_reply(reply):
    gpus, by_uuid, notes = [], {}, []
    for line in run_smi("--query-gpu=" + SMI_GPU_FIELDS):
        parts = [part.strip() for part in line.split(", ")]
        index = smi_value(parts[0], int)
        if len(parts) != 13 or index is None:
            notes.append("nvidia-smi: " + line.strip())  # e.g. a lost GPU's message
            continue
        gpu = empty_gpu(index)
        total, free = smi_value(parts[4], int), smi_value(parts[6], int)
        gpu.update({
            "uuid": smi_value(parts[1]), "pci_bus_id": smi_value(parts[2]),
            "name": smi_value(parts[3]), "mem_total_mb": total, "mem_free_mb": free,
            # Used is all that is not free, as with NVML (newer drivers leave reserved memory out).
            "mem_used_mb": smi_value(parts[5], int) if None in (total, free) else max(0, total - free),
            "util_percent": smi_value(parts[7], int),
            "mem_util_percent": smi_value(parts[8], int),
            "temperature_c": smi_value(parts[9], int), "power_w": smi_value(parts[10], float),
            "power_limit_w": smi_value(parts[11], float)})
        reply["driver_version"] = reply["driver_version"] or smi_value(parts[12])
        gpus.append(gpu)
        by_uuid[gpu["uuid"]] = gpu
    for line in run_smi("--query-compute-apps=" + SMI_APP_FIELDS):
        parts = line.split(", ")
        pid = smi_value(parts[1], int) if len(parts) >= 4 else None
        gpu = by_uuid.get(parts[0].strip())
        if pid is None or gpu is None:
            continue
        mem = smi_value(parts[-1], int)
        process = {"pid": pid, "type": "compute", "mem_mb": mem}
        process.update(process_details(pid, smi_value(", ".join(parts[2:-1]))))
        gpu["processes"].append(process)
    reply["source"] = "nvidia-smi"
    reply["gpus"] = gpus
    return notes


def disk(job_root):
    path = os.path.abspath(os.path.expanduser(job_root))
    probe = path
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)  # the nearest existing parent
    try:
        stat = os.statvfs(probe)
        return path, stat.f_bavail * stat.f_frsize // MIB
    except OSError:
        return path, None


def current_boot_id():
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip() or None
    except (IOError, OSError):
        return None


def proc_visibility():
    """The hidepid option of /proc ("0" when absent) and whether it hides other users'
    processes from this user (root, and members of the gid= group, see them all); (None, None)
    when /proc/mounts cannot be read."""
    try:
        with open("/proc/mounts", "rb") as f:  # mount points need not be ASCII (Python 3.6's C locale)
            lines = f.read().decode("utf-8", "replace").splitlines()
    except (IOError, OSError):
        return None, None
    options = None
    for line in lines:
        fields = line.split()
        if len(fields) >= 4 and fields[1] == "/proc" and fields[2] == "proc":
            options = fields[3].split(",")  # the last mount on /proc is the one in effect
    if options is None:
        return None, None
    hidepid, gid = "0", None
    for option in options:
        if option.startswith("hidepid="):
            hidepid = option[len("hidepid="):]
        elif option.startswith("gid="):
            gid = option[len("gid="):]
    if hidepid in ("0", "off") or os.geteuid() == 0:
        return hidepid, False
    try:
        exempt = gid is not None and int(gid) in os.getgroups() + [os.getegid()]
    except ValueError:
        exempt = False
    return hidepid, not exempt


def node_info(request):
    boot_id = current_boot_id()
    try:
        load = [round(value, 2) for value in os.getloadavg()]
    except OSError:
        load = None
    job_root = request.get("job_root")
    path, free = disk(job_root if isinstance(job_root, str) and job_root else "~/.nvidb/jobs")
    hidepid, hides = proc_visibility()
    return {"hostname": os.uname().nodename, "boot_id": boot_id, "time": time.time(),
            "load": load, "cpu_count": os.cpu_count(), "disk_path": path,
            "disk_free_mb": free, "python": "%d.%d.%d" % sys.version_info[:3],
            "proc_hidepid": hidepid, "proc_hides_others": hides}


# --- jobs on this node: query, launch, kill (docs/agent-protocol.md, "Jobs") ---
#
# One directory per attempt holds: token, run.sh, pid (JSON identity written by the agent),
# stdout.log, stderr.log, exit ("CODE FINISHED_AT", written by the wrapper), and what the job
# writes itself: status (progress lines) and result.json. The job runs in work/ below it
# unless told otherwise, so a job that cleans its working directory leaves the queue's files
# alone. The ledger, <job_root>/.launched/<token>, records every launch before its wrapper
# starts: an attempt is started at most once, even when its directory is removed.

LOG_TAIL_BYTES = 8192
# How much of the end of each log of a job that exited non-zero is sent for the queue to look
# for out-of-memory messages in (model.FailureClass.OOM_SCAN_BYTES).
FAILURE_SCAN_BYTES = 16384
LOG_READ_LIMIT = 1048576  # the most bytes one log read returns (before base64)
PROGRESS_LIMIT = 500
RESULT_LIMIT = 1048576
KILL_SETTLE_S = 5
ARM_WAIT_S = 2
# A launch cut short (its agent died before the wrapper armed) is started again only once it
# is this old: long past the moment a wrapper its agent forked could still be on its way to
# exec, where nothing can find it yet.
CUT_SHORT_S = 2
LEDGER = ".launched"
LEDGER_KEEP_S = 30 * 86400
EXIT_SLOT_BYTES = 64
DEFAULT_JOB_ROOT = "~/.nvidb/jobs"
WRAPPER_MARK = "nvidb-wrapper"
# The wrapper is started in a new session, in the attempt directory, with "$1" = the umask
# the job should get and "$2" = the launch token (so the wrapper can be found by its token
# alone). It never dies of TERM (trapped, so children still get the default action) and
# announces that with the file "armed". Job control (set -m) puts the job in a process group
# of its own, whose id the job writes to "jobpgid" before it starts: kills go to that group
# only, never to the wrapper or the helpers it runs to record the status (143 after TERM,
# 137 after KILL); job control is off again once the job ended, so those helpers stay in
# the wrapper's group, which a kill that finds no job group never signals. A "cancel" file
# written before the job started stops it from starting: the kill writes "cancel" then
# reads "jobpgid", the job writes "jobpgid" then reads "cancel", so one of them always
# sees the other. "jobpgid" is written in place (one write of a few bytes: a reader finds it
# absent, empty or whole, and without a whole number falls back to the session's groups), which
# spares an mv(1) process before every job starts. The exit status is written into
# "exit.slot", which the agent filled before the start, so recording it needs no free disk
# space (a job that fills the disk still gets its exit code), then renamed to "exit". The
# time is bash's own clock ($EPOCHREALTIME, bash 5; its radix may be a comma) where it has
# one, which spares a date(1) process at the end of every job.
WRAPPER = r"""trap ':' TERM
: >armed
set -m
( echo "$BASHPID" >jobpgid
  [ -e cancel ] && exit 143
  umask "$1"; exec bash run.sh ) >stdout.log 2>stderr.log </dev/null
code=$?
set +m
t=${EPOCHREALTIME:-}
[ -n "$t" ] || t=$(date +%s.%N)
line="$code ${t/,/.}"
{ printf '%s\n' "$line" 1<>exit.slot && mv -f exit.slot exit; } 2>/dev/null ||
  { printf '%s\n' "$line" >exit.tmp && mv -f exit.tmp exit; }
"""


class BadEntry(Exception):
    """A request entry that lacks a field or has one of the wrong type."""


def field(entry, name, kind, default=None):
    """entry[name], checked: str means a non-empty string, int a whole number."""
    value = entry.get(name, default)
    if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value):
        raise BadEntry("bad request entry: %r must be %s" % (name, {
            str: "a non-empty string", int: "a whole number"}.get(kind, "a number")))
    return value


def node_path(path):
    """A path from a request: ~ is this node's home, a relative path is under it."""
    path = os.path.expanduser(path)
    return os.path.normpath(os.path.join(os.path.expanduser("~"), path))


def open_nofollow(path, flags=os.O_RDONLY):
    """A file descriptor for path, never through a symbolic link at its last component."""
    return os.open(path, flags | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))


def read_text(path, limit=None):
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            data = f.read() if limit is None else f.read(limit)
    except (IOError, OSError):
        return None
    return data.decode("utf-8", "replace")


def write_atomic(path, text, mode=0o600):
    """Writes path through a fresh temporary file renamed over it: a symbolic link planted at
    either name is replaced, never followed, and nothing outside the directory is touched."""
    temporary = path + ".tmp"
    try:
        os.unlink(temporary)
    except OSError as e:
        if e.errno != errno.ENOENT:
            raise
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as f:  # UTF-8 whatever the locale: Python 3.6 in the C locale writes ASCII only
        os.fchmod(f.fileno(), mode)
        f.write(text.encode("utf-8"))
    os.rename(temporary, path)


class UnsafePath(BadEntry):
    """A job directory that others could change under us, or a link where a directory belongs."""


def check_job_root(root):
    """Creates job_root (0700) when it is missing and refuses one that another user owns or
    could change, like OpenSSH refuses such a ~/.ssh: job_root itself must be ours and not
    writable by group or others, and no directory above it writable by everyone unless
    sticky (/tmp). (Directories above it may belong to others, as a project directory
    often does.)"""
    if not os.path.isdir(root):
        os.makedirs(root, 0o700, exist_ok=True)
    euid = os.geteuid()
    info = os.stat(root)
    if info.st_uid != euid:
        raise UnsafePath("job_root %s is owned by uid %d, not by you (uid %d); set queue.job_root to a "
                         "directory of your own" % (root, info.st_uid, euid))
    if info.st_mode & 0o022:
        raise UnsafePath("job_root %s is writable by others (mode %04o); run 'chmod go-w %s' on the node"
                         % (root, statmod.S_IMODE(info.st_mode), root))
    parent = os.path.dirname(os.path.realpath(root))
    while True:
        info = os.stat(parent)
        if info.st_mode & 0o002 and not info.st_mode & statmod.S_ISVTX:
            raise UnsafePath("%s (above job_root %s) is writable by everyone (mode %04o), so anyone could replace "
                             "your job directories; run 'chmod o-w %s' on the node or use another job_root"
                             % (parent, root, statmod.S_IMODE(info.st_mode), parent))
        if os.path.dirname(parent) == parent:
            return
        parent = os.path.dirname(parent)


def private_dirs(root, directory):
    """Makes each directory from job_root down to directory (0700) and checks every one is a
    real directory of ours that only we can change: never a symbolic link."""
    relative = os.path.relpath(directory, root)
    if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
        raise UnsafePath("%s is not under job_root %s" % (directory, root))
    path = root
    euid = os.geteuid()
    for part in relative.split(os.sep):
        path = os.path.join(path, part)
        try:
            os.mkdir(path, 0o700)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        info = os.lstat(path)
        if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
            raise UnsafePath("%s is not a directory (a link or a file is in its place); remove it" % path)
        if info.st_uid != euid:
            raise UnsafePath("%s is owned by uid %d, not by you; remove it" % (path, info.st_uid))
        if info.st_mode & 0o077:
            fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fchmod(fd, 0o700)
            finally:
                os.close(fd)


def ledger_dir(request):
    job_root = request.get("job_root")
    return os.path.join(node_path(job_root if isinstance(job_root, str) and job_root else DEFAULT_JOB_ROOT), LEDGER)


def read_ledger(ledger, token):
    """The ledger entry of a launch token ({"dir", "launched_at", "identity"?}), or None when
    this node never launched it."""
    if not ledger or "/" in token or token.startswith("."):
        return None
    text = read_text(os.path.join(ledger, token))
    if text is None:
        return None
    try:
        entry = json.loads(text)
    except ValueError:
        entry = None
    return entry if isinstance(entry, dict) else {}


def prune_ledger(ledger):
    """Forgets launches older than LEDGER_KEEP_S (their jobs were settled long ago)."""
    cutoff = time.time() - LEDGER_KEEP_S
    try:
        names = os.listdir(ledger)
    except OSError:
        return
    for name in names:
        path = os.path.join(ledger, name)
        try:
            if os.lstat(path).st_mtime < cutoff:
                os.unlink(path)
        except OSError:
            pass


def proc_stat(pid):
    """(state, pgid, sid, start_ticks) of a process, or None when there is no such process."""
    data = read_proc(pid, "stat")
    if not data:
        return None
    fields = data[data.rfind(")") + 2:].split()  # the name in (...) may hold spaces
    try:
        return fields[0], int(fields[2]), int(fields[3]), int(fields[19])
    except (IndexError, ValueError):
        return None


def alive(pid, start_ticks, boot_id):
    """True while pid is still the process recorded at launch: never a bare pid."""
    if boot_id != current_boot_id():
        return False
    stat = proc_stat(pid)
    return stat is not None and stat[0] != "Z" and stat[3] == start_ticks


def session_members(sid, start_ticks):
    """Live processes of the session a wrapper led (the job and its children), started no
    earlier than the wrapper. Linux does not reuse a pid while it names a live session, so a
    member of session sid is a process of that job."""
    members = []
    for name in os.listdir("/proc"):
        stat = proc_stat(int(name)) if name.isdigit() else None
        if stat is not None and stat[2] == sid and stat[0] != "Z" and stat[3] >= start_ticks:
            members.append(int(name))
    return members


def liveness(identity, session=True):
    """"wrapper" while the recorded wrapper runs, "session" while it is gone but processes of
    its session (the job) still run (asked only when session is true), None when nothing of
    the job is alive."""
    if not identity or identity.get("pid") is None or identity.get("start_ticks") is None:
        return None
    if identity.get("boot_id") != current_boot_id():
        return None
    pid, ticks = int(identity["pid"]), int(identity["start_ticks"])
    stat = proc_stat(pid)
    if stat is not None and stat[3] == ticks and stat[0] != "Z":
        return "wrapper"
    if stat is not None and stat[3] != ticks:
        return None  # the pid names another process: the wrapper's session is over
    return "session" if session and session_members(pid, ticks) else None


def identity_of(record):
    """A wrapper identity from a dict holding pid and start_ticks (a pid file, a ledger entry,
    a request), or None."""
    try:
        int(record["pid"]), int(record["start_ticks"])
        return record
    except (ValueError, TypeError, KeyError):
        return None


def read_identity(directory):
    """The wrapper identity the agent recorded at launch (the pid file), or None."""
    try:
        return identity_of(json.loads(read_text(os.path.join(directory, "pid")) or ""))
    except ValueError:
        return None


def read_exit(directory):
    """(exit code, finish time) from the exit file, or None while there is none."""
    path = os.path.join(directory, "exit")
    text = read_text(path)
    if text is None:
        return None
    parts = text.split()
    try:
        code = int(parts[0])
    except (IndexError, ValueError):
        code = None
    try:
        finished = float(parts[1])
    except (IndexError, ValueError):
        try:
            finished = os.stat(path).st_mtime
        except OSError:
            finished = None
    return code, finished


def same_dir(pid, directory):
    try:
        return os.path.realpath(os.readlink("/proc/%d/cwd" % pid)) == os.path.realpath(directory)
    except OSError:
        return False


def wrapper_args(pid):
    """The arguments after the marker of a wrapper process, or None when pid is no wrapper."""
    words = (read_proc(pid, "cmdline", binary=True) or b"").split(b"\0")
    if WRAPPER_MARK.encode() not in words:
        return None
    return [word.decode("utf-8", "replace") for word in words[words.index(WRAPPER_MARK.encode()) + 1:]]


def is_wrapper(pid, directory, start_ticks, token=None):
    """True when the process is the wrapper of this attempt: it carries the attempt's launch
    token, or its working directory or the directory's pid file names it."""
    args = wrapper_args(pid)
    if token is not None and args is not None and token in args[1:2]:
        return True
    if same_dir(pid, directory):
        return True
    recorded = read_identity(directory)
    return recorded is not None and recorded["pid"] == pid \
        and recorded["start_ticks"] == start_ticks


def find_wrapper(token, directory):
    """The identity of a live wrapper of this launch that left no pid file (the agent that
    started it died before writing one): found by its token, or (a wrapper started by an
    older agent) by its marker and working directory; or None."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        args = wrapper_args(pid)
        stat = proc_stat(pid) if args is not None else None
        if stat is None or stat[0] == "Z":
            continue
        if token in args[1:2] or (len(args) < 2 and directory is not None and same_dir(pid, directory)):
            return {"pid": pid, "pgid": stat[1], "start_ticks": stat[3],
                    "boot_id": current_boot_id(), "started_at": None}
    return None


def read_end(path, size):
    """The last size bytes of a file and whether it was longer; (None, False) if unreadable."""
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            f.seek(0, 2)
            length = f.tell()
            f.seek(max(0, length - size))
            return f.read(size), length > size
    except (IOError, OSError):
        return None, False


def tail(path, lines):
    """The last lines of a log, at most LOG_TAIL_BYTES bytes, or None when it is empty."""
    data, cut = read_end(path, LOG_TAIL_BYTES)
    chunk = (data or b"").splitlines()[1 if cut else 0:]  # a cut first line is dropped
    text = b"\n".join(chunk[-lines:] if lines > 0 else []).decode("utf-8", "replace")
    text = text.encode("utf-8")[-LOG_TAIL_BYTES:].decode("utf-8", "ignore")  # U+FFFD is 3 bytes
    return text or None


def last_lines(data, lines, cut):
    """The last lines of data (as tail -n counts them: a final line without a newline counts);
    when data is the cut end of a longer file, its partial first line is dropped."""
    if lines <= 0:
        return b""
    at = len(data) - 1 if data.endswith(b"\n") else len(data)
    for _ in range(lines):
        at = data.rfind(b"\n", 0, at)
        if at < 0:
            break
    if at >= 0:
        return data[at + 1:]
    first = data.find(b"\n")
    return data[first + 1:] if cut and 0 <= first < len(data) - 1 else data


def read_log(entry):
    """One read of a job's stdout.log or stderr.log: from a byte offset, or (no offset) the
    last lines before the size the file had when opened. Bytes travel as base64, so offsets
    stay exact whatever the job printed."""
    import base64
    stream = entry.get("stream", "stdout")
    if stream not in ("stdout", "stderr"):
        raise BadEntry("bad request entry: 'stream' must be stdout or stderr")
    directory = node_path(field(entry, "dir", str))
    limit = min(field(entry, "max_bytes", int, LOG_READ_LIMIT), LOG_READ_LIMIT)
    offset = None if entry.get("offset") is None else field(entry, "offset", int)
    lines = field(entry, "lines", int, 0)
    if limit < 0 or (offset or 0) < 0 or lines < 0:
        raise BadEntry("bad request entry: offset, lines and max_bytes cannot be negative")
    report = {"id": entry.get("id"), "stream": stream, "status": "ok", "size": 0,
              "offset": offset or 0, "next_offset": offset or 0, "data": "", "reason": None, "cut": False}
    try:
        f = os.fdopen(open_nofollow(os.path.join(directory, stream + ".log")), "rb")
    except (IOError, OSError) as e:
        if e.errno != errno.ENOENT:
            raise
        report["status"] = "missing"
        report["reason"] = "%s has no %s.log" % (directory, stream)
        return report
    with f:
        size = os.fstat(f.fileno()).st_size
        if offset is None:
            start = max(0, size - limit)
            f.seek(start)
            data = last_lines(f.read(size - start), lines, start > 0)
            report["offset"], report["next_offset"] = size - len(data), size
            # cut: the window of `limit` bytes did not hold the lines asked for whole (a line
            # longer than the window, or fewer lines than asked before the window's start)
            whole = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
            report["cut"] = start > 0 and (size - len(data) == start or whole < lines)
        else:
            f.seek(offset)
            data = f.read(limit)
            report["next_offset"] = offset + len(data)
    report["size"] = max(size, report["next_offset"])
    report["data"] = base64.b64encode(data).decode("ascii")
    return report


def progress(directory):
    """The last non-empty line of the job's status file, at most PROGRESS_LIMIT characters."""
    data, _ = read_end(os.path.join(directory, "status"), 4096)
    for line in reversed((data or b"").decode("utf-8", "replace").splitlines()):
        if line.strip():
            return line.strip()[:PROGRESS_LIMIT]
    return None


def collect_result(directory, report):
    path = os.path.join(directory, "result.json")
    try:
        if os.lstat(path).st_size > RESULT_LIMIT:
            report["result_error"] = "result.json is larger than %d bytes" % RESULT_LIMIT
            return
    except OSError:
        return  # no result.json
    try:
        report["result"] = json.loads(read_text(path) or "")
    except ValueError as e:
        report["result_error"] = "result.json is not valid JSON: %s" % e


def job_report(entry, status):
    report = {"id": entry.get("id"), "attempt": entry.get("attempt"), "status": status}
    for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at", "exit_code",
                "finished_at", "progress", "result", "result_error", "log_tail", "failure_log", "reason"):
        report[key] = None
    return report


def held_token(directory):
    token = read_text(os.path.join(directory, "token"))
    return None if token is None else token.strip()


def query_job(entry, tail_lines, ledger):
    """What became of one attempt. Its process is known from the identity the queue recorded
    (sent with the query), the pid file, the ledger, or a live wrapper carrying its token, in
    that order; a directory that is gone or holds another token does not make a launched job
    "missing": only an attempt this node never launched is."""
    report = job_report(entry, "missing")
    directory = node_path(field(entry, "dir", str))
    token = field(entry, "token", str)
    held = held_token(directory)
    ours = held == token
    launched = read_ledger(ledger, token)
    given = identity_of({key: entry.get(key) for key in ("pid", "pgid", "start_ticks", "boot_id")})
    recorded = read_identity(directory) if ours else None
    if given is not None and recorded is not None and (recorded["pid"], recorded["start_ticks"]) == (
            given["pid"], given["start_ticks"]):
        given = recorded  # the same process, with its start time
    identity = given or recorded or identity_of((launched or {}).get("identity") or {})
    if identity is None and (ours or launched is not None):
        # The agent that launched it died before recording the wrapper: find it by its
        # token, and record it so later probes and kills know it.
        identity = find_wrapper(token, directory if ours else None)
        if identity is not None and ours:
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
    if identity is None and not ours and launched is None:
        report["reason"] = ("no launch here (%s has no token)" % directory if held is None
                            else "%s holds another launch token" % directory)
        return report
    # Invariant: liveness first, then the exit file, re-read before calling a job gone. The
    # wrapper records the exit status before it ends, so a wrapper that is gone and left one
    # means the job ended (whatever it left running in the background); one that left none
    # was killed, and the job is alive while processes of its session are.
    state = liveness(identity, session=False)
    finished = None if state or not ours else read_exit(directory)
    if state is None and finished is None:
        state = liveness(identity)
        finished = None if state or not ours else read_exit(directory)
    for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
        report[key] = (identity or {}).get(key)
    if state is not None:
        report["status"] = "running"
        if state == "session":
            report["reason"] = "its wrapper is gone; the job's processes still run"
    elif finished is not None:
        report["status"] = "exited"
        report["exit_code"], report["finished_at"] = finished
    elif identity is None and launched is None:
        report["reason"] = "the launch in %s did not complete" % directory
        return report
    elif identity is None and ours and cut_short(directory, launched):
        # Recorded, but its agent died before the wrapper armed: the job never started, so
        # the attempt is to be launched (again), not lost.
        report["reason"] = "its launch was cut short before the job started"
        return report
    else:
        report["status"] = "vanished"
        report["reason"] = ("the wrapper is gone and left no exit status" if ours
                            else "its directory %s was removed or replaced while it ran; its exit status is lost"
                            % directory if identity is not None
                            else "its launch was interrupted and its directory is gone")
    if not ours:
        return report
    report["progress"] = progress(directory)
    collect_result(directory, report)
    if report["status"] == "vanished" or report["exit_code"] != 0:
        report["log_tail"] = (tail(os.path.join(directory, "stderr.log"), tail_lines)
                              or tail(os.path.join(directory, "stdout.log"), tail_lines))
    if report["status"] == "exited" and report["exit_code"] != 0:
        report["failure_log"] = failure_log(directory)
    return report


def failure_log(directory):
    """The last FAILURE_SCAN_BYTES of stderr.log, then of stdout.log, as text (None when both are
    empty): where the queue looks for out-of-memory messages to classify the failure."""
    parts = []
    for name in ("stderr.log", "stdout.log"):
        data, _ = read_end(os.path.join(directory, name), FAILURE_SCAN_BYTES)
        if data:
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts) or None


# ---------------------------------------------------------------------------------------------
# Claims: one node's GPUs shared by several queues (docs/sharing.md). A launch that names GPUs
# takes the claims directory's lock, re-reads the cards' memory and every live claim, and goes
# ahead only when the job still fits; it then leaves a claim file there until its wrapper ends.
# Every probe reports the live claims, so other queues charge them as foreign memory.

# The claims directory when the request names none: NVIDB_CLAIMS_DIR of the node's environment, else
# /tmp/nvidb-claims.
DEFAULT_CLAIMS_DIR = os.environ.get("NVIDB_CLAIMS_DIR") or "/tmp/nvidb-claims"
CLAIM_PREFIX = "claim-"
CLAIM_MAX_BYTES = 4096
# A claim written before its wrapper started lives for CLAIM_SURE_S whatever happens (a launch
# records its wrapper within ARM_WAIT_S), then while the agent that wrote it runs, and at most
# CLAIM_PENDING_S without a wrapper.
CLAIM_SURE_S = 30
CLAIM_PENDING_S = 120
CLAIM_LOCK_S = 10  # the longest a launch waits for another agent's claim check
DEMAND_PREFIX = "demand-"
# A queue's published demand counts while its probes refresh it: a queue whose ticks stopped
# (its user ran no command, no daemon) no longer holds a card back for its jobs.
DEMAND_FRESH_S = 120
POLICY_FILE = "policy.yml"
POLICY_MAX_BYTES = 65536


class ClaimsRefused(BadEntry):
    """A claims directory that could let another user forge or remove claims."""


def claims_settings(request):
    """(directory, queue id, queue name) from the request's "claims" entry; the default
    directory when the request names none."""
    settings = request.get("claims")
    settings = settings if isinstance(settings, dict) else {}
    directory = settings.get("dir")
    directory = node_path(directory) if isinstance(directory, str) and directory else DEFAULT_CLAIMS_DIR
    queue, name = settings.get("queue"), settings.get("name")
    return directory, queue if isinstance(queue, str) else None, name if isinstance(name, str) else None


def check_claims_dir(directory, create):
    """Makes the claims directory (mode 1777) when create is set and it is missing, then checks
    it: a real directory (never a link), sticky when others may write it (so no user can remove
    or rename another's claim), and owned by root, by this user or, when it is the sticky
    world-writable folder the first user of the node made, by that user. Returns whether it
    exists; raises ClaimsRefused for one that is unsafe."""
    try:
        info = os.lstat(directory)
    except OSError as e:
        if e.errno != errno.ENOENT:
            raise
        if not create:
            return False
        try:
            os.mkdir(directory, 0o700)
            fd = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fchmod(fd, 0o1777)
            finally:
                os.close(fd)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        info = os.lstat(directory)
    mode = statmod.S_IMODE(info.st_mode)
    if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
        raise ClaimsRefused("claims_dir %s is not a directory (a link or a file is in its place); remove it "
                            "or set claims_dir to another path" % directory)
    if mode & 0o022 and not mode & statmod.S_ISVTX:
        raise ClaimsRefused("claims_dir %s is writable by others but not sticky (mode %04o), so anyone could "
                            "remove your claims; run 'chmod +t %s' on the node" % (directory, mode, directory))
    euid = os.geteuid()
    shared = mode & 0o1002 == 0o1002
    if info.st_uid not in (0, euid) and not shared:
        raise ClaimsRefused("claims_dir %s is owned by uid %d and not a sticky folder everyone may write "
                            "(mode %04o); ask its owner to run 'chmod 1777 %s' or set claims_dir to another path"
                            % (directory, info.st_uid, mode, directory))
    return True


def claim_name(uid, queue, job, attempt):
    return "%s%d-%s-%d-%d.json" % (CLAIM_PREFIX, uid, queue, job, attempt)


def read_owned(directory, name, valid, what):
    """The JSON entry in one file of the claims directory, checked: a regular file (never
    followed through a link) of at most CLAIM_MAX_BYTES, valid, and owned by the uid written
    inside. Returns (entry, None) or (None, warning)."""
    path = os.path.join(directory, name)
    try:
        fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None, None  # removed meanwhile
        if e.errno == errno.ELOOP:
            return None, "ignored %s %s: a symbolic link" % (what, path)
        return None, "ignored %s %s: %s" % (what, path, e.strerror)
    try:
        info = os.fstat(fd)
        if not statmod.S_ISREG(info.st_mode):
            return None, "ignored %s %s: not a regular file" % (what, path)
        if info.st_size > CLAIM_MAX_BYTES:
            return None, "ignored %s %s: %d bytes, more than a %s holds" % (what, path, info.st_size, what)
        data = os.read(fd, CLAIM_MAX_BYTES + 1)
    finally:
        os.close(fd)
    try:
        entry = json.loads(data.decode("utf-8"))
    except ValueError:
        return None, "ignored %s %s: not a %s (unreadable JSON)" % (what, path, what)
    if not valid(entry):
        return None, "ignored %s %s: not a %s (fields missing or of the wrong type)" % (what, path, what)
    if entry["uid"] != info.st_uid:
        return None, "ignored %s %s: it says uid %d but uid %d owns the file" % (what, path, entry["uid"],
                                                                                info.st_uid)
    entry["file"] = name
    return entry, None


def read_claim(directory, name):
    return read_owned(directory, name, valid_claim, "claim")


def whole_number(value, nullable=False):
    return value is None and nullable or isinstance(value, int) and not isinstance(value, bool) and value >= 0


def short_text(value, nullable=False):
    return value is None and nullable or isinstance(value, str) and 0 < len(value) <= 256


def valid_claim(claim):
    whole, text = whole_number, short_text
    return isinstance(claim, dict) and whole(claim.get("uid")) and text(claim.get("user")) \
        and text(claim.get("queue")) and text(claim.get("queue_name"), True) and whole(claim.get("job")) \
        and whole(claim.get("attempt")) and isinstance(claim.get("gpus"), list) and 0 < len(claim["gpus"]) <= 64 \
        and all(text(uuid) for uuid in claim["gpus"]) and whole(claim.get("mib")) \
        and isinstance(claim.get("exclusive", False), bool) and whole(claim.get("pid"), True) \
        and whole(claim.get("start_ticks"), True) and text(claim.get("boot_id"), True) \
        and whole(claim.get("agent_pid"), True) and whole(claim.get("agent_ticks"), True) \
        and isinstance(claim.get("created_at"), (int, float)) \
        and (claim.get("expires_at") is None or isinstance(claim.get("expires_at"), (int, float)))


def claim_alive(claim, now, boot_id, hidden):
    """Whether a claim still holds its GPUs: its wrapper runs (pid and start time, this boot),
    or it has no wrapper yet and is younger than CLAIM_SURE_S, or younger than CLAIM_PENDING_S
    with the agent that wrote it running; never past its expiry. Another
    user's wrapper that /proc hides (hidepid) is taken to run until the claim expires."""
    if claim.get("expires_at") is not None and claim["expires_at"] < now:
        return False
    if claim.get("boot_id") is not None and claim["boot_id"] != boot_id:
        return False
    if claim.get("pid") is None or claim.get("start_ticks") is None:
        if claim["created_at"] <= now - CLAIM_PENDING_S:
            return False
        if claim["created_at"] > now - CLAIM_SURE_S:
            return True  # its launch is under way: never let a claim go on a reading of /proc alone
        if claim.get("agent_pid") is None or claim.get("agent_ticks") is None or hidden and claim["uid"] != os.geteuid():
            return True
        return alive(claim["agent_pid"], claim["agent_ticks"], boot_id)
    if hidden and claim["uid"] != os.geteuid():
        return True
    return alive(claim["pid"], claim["start_ticks"], boot_id)


def live_claims(directory):
    """(live claims, warnings) of the claims directory; this user's dead claims are removed."""
    claims, warnings = [], []
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return claims, warnings
        return claims, ["cannot read claims_dir %s: %s" % (directory, e.strerror)]
    now, boot_id, hidden = time.time(), current_boot_id(), proc_visibility()[1]
    euid = os.geteuid()
    for name in names:
        if not name.startswith(CLAIM_PREFIX) or not name.endswith(".json"):
            continue
        claim, warning = read_claim(directory, name)
        if warning is not None:
            warnings.append(warning)
        if claim is None:
            continue
        if claim_alive(claim, now, boot_id, hidden):
            claims.append(claim)
        elif claim["uid"] == euid:
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass
    return claims, warnings


def claim_use(claims, gpus, sid_of):
    """Adds "used_mib" to each claim: per GPU UUID, the memory its job's processes (the session
    its wrapper leads) hold there now."""
    for claim in claims:
        claim["used_mib"] = {}
        for gpu in gpus:
            if gpu.get("uuid") not in claim["gpus"]:
                continue
            used = 0
            for process in gpu.get("processes") or []:
                if claim.get("pid") is not None and sid_of(process["pid"]) == claim["pid"]:
                    used += process.get("mem_mb") or 0
            claim["used_mib"][gpu["uuid"]] = used


def valid_demand(entry):
    whole, text = whole_number, short_text
    return isinstance(entry, dict) and whole(entry.get("uid")) and text(entry.get("user")) \
        and text(entry.get("queue")) and text(entry.get("queue_name"), True) and whole(entry.get("waiting")) \
        and whole(entry.get("gpus")) and whole(entry.get("mib")) and isinstance(entry.get("exclusive", False), bool) \
        and isinstance(entry.get("oldest_at"), (int, float)) and isinstance(entry.get("updated_at"), (int, float))


def demand_name(uid, queue):
    return "%s%d-%s.json" % (DEMAND_PREFIX, uid, queue)


def this_user():
    uid = os.geteuid()
    try:
        return uid, pwd.getpwuid(uid).pw_name
    except KeyError:
        return uid, str(uid)


def publish_demand(request):
    """Writes (or refreshes, or removes when nothing waits) this queue's waiting demand in the
    claims directory: what its ready GPU jobs for this node need, for other queues' fair share.
    Only a queue's probe that carries "demand" publishes; a monitor's names no queue."""
    settings = request.get("claims")
    wanted = settings.get("demand") if isinstance(settings, dict) else None
    directory, queue, queue_name = claims_settings(request)
    if queue is None or not isinstance(wanted, dict) or "/" in queue or queue.startswith("."):
        return
    uid, user = this_user()
    path = os.path.join(directory, demand_name(uid, queue))
    entry = {"uid": uid, "user": user, "queue": queue, "queue_name": queue_name,
             "waiting": wanted.get("waiting"), "gpus": wanted.get("gpus"), "mib": wanted.get("mib"),
             "exclusive": wanted.get("exclusive") is True, "oldest_at": wanted.get("oldest_at"),
             "updated_at": time.time()}
    if not valid_demand(entry):
        raise BadEntry("bad request: 'claims.demand' needs whole numbers 'waiting', 'gpus', 'mib' and 'oldest_at'")
    if entry["waiting"] == 0:
        remove_claim(path)
        return
    check_claims_dir(directory, True)
    write_entry(directory, path, entry)


def live_demand(directory):
    """(fresh demand entries of every queue, warnings); this user's stale ones are removed."""
    entries, warnings = [], []
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        return entries, [] if e.errno == errno.ENOENT else ["cannot read claims_dir %s: %s" % (directory, e.strerror)]
    now, euid = time.time(), os.geteuid()
    for name in names:
        if not name.startswith(DEMAND_PREFIX) or not name.endswith(".json"):
            continue
        entry, warning = read_owned(directory, name, valid_demand, "demand")
        if warning is not None:
            warnings.append(warning)
        if entry is None:
            continue
        if entry["updated_at"] > now - DEMAND_FRESH_S:
            entries.append(entry)
        elif entry["uid"] == euid:
            remove_claim(os.path.join(directory, name))
    return entries, warnings


def read_policy(directory):
    """(text, error) of the node's policy file in the claims directory: (None, None) when there
    is none. Believed only when it is a regular file (never a link) of at most POLICY_MAX_BYTES,
    owned by root or by the directory's owner, and writable by no one else."""
    path = os.path.join(directory, POLICY_FILE)
    try:
        fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None, None
        if e.errno == errno.ELOOP:
            return None, "ignored %s: a symbolic link" % path
        return None, "cannot read %s: %s" % (path, e.strerror)
    try:
        info = os.fstat(fd)
        owner = os.lstat(directory).st_uid
        if not statmod.S_ISREG(info.st_mode):
            return None, "ignored %s: not a regular file" % path
        if info.st_uid not in (0, owner):
            return None, ("ignored %s: owned by uid %d, neither root nor the owner of %s; only whoever "
                          "administers the node writes the policy" % (path, info.st_uid, directory))
        if statmod.S_IMODE(info.st_mode) & 0o022:
            return None, ("ignored %s: others may write it (mode %04o); its owner should run 'chmod go-w %s'"
                          % (path, statmod.S_IMODE(info.st_mode), path))
        if info.st_size > POLICY_MAX_BYTES:
            return None, "ignored %s: %d bytes, more than a policy holds" % (path, info.st_size)
        data = os.read(fd, POLICY_MAX_BYTES + 1)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8"), None
    except ValueError:
        return None, "ignored %s: not UTF-8 text" % path


def claim_mib(claim, gpus):
    """MiB a claim holds over all its GPUs: its reservation on each, the whole card when exclusive."""
    total = 0
    for uuid in claim["gpus"]:
        card = next((g.get("mem_total_mb") for g in gpus if g.get("uuid") == uuid), None)
        total += card if claim.get("exclusive") and card else claim["mib"]
    return total


def cap_blocker(claim, cap, claims, gpus):
    """Why the node's policy cap (as the queue read it: {"gpus", "mib", "user"}) keeps this user's
    claim off, or None: every live claim of this uid on the node, of any queue, counts."""
    if not isinstance(cap, dict):
        return None
    mine = [c for c in claims if c["uid"] == claim["uid"]]
    held_gpus = sum(len(c["gpus"]) for c in mine)
    held_mib = sum(claim_mib(c, gpus) for c in mine)
    max_gpus, max_mib = cap.get("gpus"), cap.get("mib")
    if whole_number(max_gpus) and held_gpus + len(claim["gpus"]) > max_gpus:
        return "the node's policy caps %s at %d GPUs here and they hold %d" % (claim["user"], max_gpus, held_gpus)
    if whole_number(max_mib) and held_mib + claim_mib(claim, gpus) > max_mib:
        return "the node's policy caps %s at %d MiB here and they hold %d" % (claim["user"], max_mib, held_mib)
    return None


def claims_report(request, reply):
    """The probe's "claims": the directory, its error (an unsafe one is not read), warnings, and
    every live claim with what its job uses on each of its GPUs."""
    directory = claims_settings(request)[0]
    uid, user = this_user()
    report = {"dir": directory, "error": None, "warnings": [], "live": [], "me": {"uid": uid, "user": user},
              "demand": [], "policy": None, "policy_error": None}
    try:
        publish_demand(request)
        if not check_claims_dir(directory, False):
            return report
    except (BadEntry, OSError) as e:
        report["error"] = str(e) if isinstance(e, BadEntry) else "claims_dir %s: %s" % (directory, e.strerror)
        return report
    claims, report["warnings"] = live_claims(directory)
    demand, warnings = live_demand(directory)
    report["warnings"] += warnings
    report["policy"], report["policy_error"] = read_policy(directory)
    queue = claims_settings(request)[1]
    for claim in claims:
        claim["mine"] = queue is not None and claim["queue"] == queue
    for entry in demand:
        entry["mine"] = queue is not None and entry["queue"] == queue
        del entry["file"]
    report["demand"] = demand
    sessions_by_pid = reply.get("sessions") or {}

    def sid_of(pid):
        entry = sessions_by_pid.get(str(pid))
        return entry["sid"] if entry else None
    claim_use(claims, reply.get("gpus") or [], sid_of)
    report["live"] = claims
    return report


def fresh_gpus(agent):
    """Every GPU's UUID, total and used memory and processes, read again now (for a launch's
    claim check): from NVML, else from nvidia-smi; [] when neither answers."""
    reply = empty_reply()
    if agent.nvml is None:
        agent.nvml = load_nvml()[0]
    if agent.nvml is not None:
        count = ctypes.c_uint()
        try:
            agent.nvml.call(("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"), ctypes.byref(count))
        except NvmlError:
            return []
        gpus = []
        for index in range(count.value):
            gpu = empty_gpu(index)
            try:
                handle = agent.nvml.handle(index)
                gpu["uuid"] = optional(agent.nvml.string, "nvmlDeviceGetUUID", handle)
                memory(agent.nvml, handle, gpu)
                for kind in ("Compute", "Graphics"):
                    for pid, used in optional(device_processes, agent.nvml, handle, kind) or []:
                        if all(p["pid"] != pid for p in gpu["processes"]):
                            gpu["processes"].append({"pid": pid, "mem_mb": None if used is None else used // MIB})
            except NvmlError as e:
                gpu["error"] = str(e)
            gpus.append(gpu)
        return gpus
    try:
        smi_reply(reply)
    except RuntimeError:
        return []
    return reply["gpus"]


def claim_blockers(claim, gpus, claims):
    """Why the claim does not fit now, one sentence, or None when it fits on every GPU it names:
    each GPU's reserved memory is what the driver counts as used plus, for every live claim on
    it, what that claim reserved beyond what its job uses yet."""
    for uuid in claim["gpus"]:
        gpu = next((g for g in gpus if g.get("uuid") == uuid), None)
        others = [c for c in claims if uuid in c["gpus"]]
        if gpu is None or gpu.get("error") or gpu.get("mem_total_mb") is None or gpu.get("mem_used_mb") is None:
            if others:  # what they leave cannot be checked: wait for a card that can be read
                return "GPU %s cannot be read now and holds claims: %s" % (
                    uuid, ", ".join(describe_claim(c) for c in others))
            continue  # unread and unclaimed: the queue's plan stands (it read the card a moment ago)
        unused = sum(max(0, c["mib"] - c["used_mib"].get(uuid, 0)) for c in others)
        reserved = gpu["mem_used_mb"] + unused
        holders = ", ".join(describe_claim(c, uuid) for c in others)
        if claim.get("exclusive") and (others or gpu["processes"]):
            return "GPU %s is not empty: %s" % (uuid, holders or "%d process(es) use it" % len(gpu["processes"]))
        exclusive = [c for c in others if c.get("exclusive")]
        if exclusive:
            return "GPU %s is held whole by %s" % (uuid, describe_claim(exclusive[0], uuid))
        if reserved + claim["mib"] > gpu["mem_total_mb"]:
            return "GPU %s has %d MiB free of %d (%d used%s), %d MiB needed" % (
                uuid, max(0, gpu["mem_total_mb"] - reserved), gpu["mem_total_mb"], gpu["mem_used_mb"],
                "; claims: " + holders if holders else "", claim["mib"])
    return None


def describe_claim(claim, uuid=None):
    mib = max(claim["mib"], claim.get("used_mib", {}).get(uuid, 0)) if uuid else claim["mib"]
    queue = claim.get("queue_name") or claim["queue"][:8]
    return "%s: %.1fG reserved, job %d of queue %s" % (claim["user"], mib / 1024.0, claim["job"], queue)


def write_claim(directory, claim):
    """Publishes this user's claim file (mode 0644: every queue must read it)."""
    path = os.path.join(directory, claim_name(claim["uid"], claim["queue"], claim["job"], claim["attempt"]))
    return write_entry(directory, path, claim)


def write_entry(directory, path, entry):
    """Writes a claims-directory entry through a temporary name of its own, then renames it in place."""
    temporary = os.path.join(directory, ".%s.%d.%s.tmp" % (os.path.basename(path), os.getpid(),
                                                           os.urandom(4).hex()))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), 0o644)
            f.write(json.dumps({k: v for k, v in entry.items() if k not in ("file", "used_mib", "mine")}) + "\n")
        os.rename(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return path


def remove_claim(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def take_claim(entry, request, agent):
    """For a launch that names GPUs: under the claims directory's lock, the GPUs' memory and
    every live claim read again; returns (path of the claim written, None), or (None, why the
    job lost its card) when it no longer fits, or (None, None) when the launch names no GPU."""
    wanted = entry.get("claim")
    if not isinstance(wanted, dict) or not wanted.get("gpus"):
        return None, None
    directory, queue, queue_name = claims_settings(request)
    if queue is None:
        raise BadEntry("bad request: a launch with a claim needs 'claims.queue'")
    check_claims_dir(directory, True)
    uid = os.geteuid()
    try:
        user = pwd.getpwuid(uid).pw_name
    except KeyError:
        user = str(uid)
    timeout = wanted.get("timeout_s")
    now = time.time()
    claim = {"uid": uid, "user": user, "queue": queue, "queue_name": queue_name,
             "job": field(entry, "id", int), "attempt": field(entry, "attempt", int),
             "gpus": [str(uuid) for uuid in wanted["gpus"]], "mib": int(wanted.get("mib") or 0),
             "exclusive": wanted.get("exclusive") is True, "pid": None, "start_ticks": None,
             "agent_pid": os.getpid(), "agent_ticks": (proc_stat(os.getpid()) or (None,) * 4)[3],
             "boot_id": current_boot_id(), "created_at": now,
             "expires_at": None if not isinstance(timeout, (int, float)) or isinstance(timeout, bool)
             else now + timeout + 3600}
    if not valid_claim(claim):
        raise BadEntry("bad request entry: 'claim' must name GPU UUIDs and a whole number of MiB")
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        deadline = time.monotonic() + CLAIM_LOCK_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except (IOError, OSError) as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        mine = claim_name(uid, queue, claim["job"], claim["attempt"])
        claims = [c for c in live_claims(directory)[0] if c["file"] != mine]
        gpus = fresh_gpus(agent)
        sids = {}

        def sid_of(pid):
            if pid not in sids:
                stat = proc_stat(pid)
                sids[pid] = stat[2] if stat else None
            return sids[pid]
        claim_use(claims, gpus, sid_of)
        blocker = claim_blockers(claim, gpus, claims) or cap_blocker(claim, wanted.get("cap"), claims, gpus)
        if blocker is not None:
            return None, blocker
        return write_claim(directory, claim), None
    finally:
        os.close(lock)  # releases the lock


def bind_claim(path, identity):
    """Records the wrapper in the claim: from now on the claim lives exactly as long as it."""
    if path is None:
        return
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            claim = json.loads(f.read(CLAIM_MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return
    claim["pid"], claim["start_ticks"] = identity.get("pid"), identity.get("start_ticks")
    claim["boot_id"] = identity.get("boot_id")
    write_claim(os.path.dirname(path), claim)


def launch_paths(entry, request):
    """A launch entry's attempt directory, token and script, with the ledger and job root it goes
    under: the token checked, the job root trusted and the ledger folder made."""
    directory = node_path(field(entry, "dir", str))
    token, script = field(entry, "token", str), field(entry, "script", str)
    if "/" in token or token.startswith(".") or "\0" in token:
        raise BadEntry("bad request entry: 'token' must not hold '/' or start with '.'")
    ledger = ledger_dir(request)
    root = os.path.dirname(ledger)
    check_job_root(root)
    private_dirs(root, ledger)
    return directory, token, script, ledger, root


def launch_job(entry, request, job_umask, children, agent):
    """Starts one attempt, at most once ever: the ledger and the directory are checked under
    a lock on the directory, and a launch the node already knows is adopted, never repeated.
    A new start that names GPUs first takes its claim (take_claim); one that no longer fits is
    answered "lost" and nothing is written."""
    report = job_report(entry, "failed")
    del report["exit_code"], report["finished_at"], report["progress"], report["result"]
    del report["result_error"], report["log_tail"], report["failure_log"], report["reason"]
    report["error"] = None
    directory, token, script, ledger, root = launch_paths(entry, request)
    launched = read_ledger(ledger, token)
    if launched is not None and not os.path.isdir(directory):
        # Launched here before, and its directory is gone since: adopt it, recreate nothing.
        identity = identity_of(launched.get("identity") or {}) or find_wrapper(token, None) or {}
        report["status"] = "adopted"
        for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
            report[key] = identity.get(key)
        return report
    private_dirs(root, directory)
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two agents launching the same attempt at once
        held = held_token(directory)
        if held is not None and held != token:
            report["error"] = "%s already holds another launch token" % directory
            return report
        launched = read_ledger(ledger, token)
        identity = None
        if held is not None or launched is not None:
            identity = (read_identity(directory) if held else None) \
                or identity_of((launched or {}).get("identity") or {}) \
                or find_wrapper(token, directory if held else None)
            if identity is None and cut_short(directory, launched):
                # The agent that launched it died before its wrapper armed: the job never ran.
                # Past the moment a wrapper it forked could still be on its way to exec (and
                # invisible), start it now; the directory lock keeps other agents out meanwhile.
                time.sleep(max(0.0, launched.get("launched_at", 0) + CUT_SHORT_S - time.time()))
                identity = find_wrapper(token, directory)
            elif identity is None and (launched is not None or read_exit(directory) is not None):
                identity = {}  # it was started once and has ended
        if identity is not None:
            report["status"] = "adopted"
        else:
            claim, lost = take_claim(entry, request, agent)
            if lost is not None:
                report["status"], report["error"] = "lost", "lost the card: " + lost
                return report
            try:
                record = {"dir": directory, "launched_at": time.time()}
                write_atomic(os.path.join(ledger, token), json.dumps(record) + "\n")
                write_atomic(os.path.join(directory, "token"), token + "\n")
                write_atomic(os.path.join(directory, "run.sh"), script, 0o700)
                write_atomic(os.path.join(directory, "exit.slot"), " " * (EXIT_SLOT_BYTES - 1) + "\n")
                private_dirs(root, os.path.join(directory, "work"))
                identity = start_wrapper(directory, job_umask, children, token)
            except BaseException:
                if claim is not None and not os.path.exists(os.path.join(directory, "armed")):
                    remove_claim(claim)
                raise
            bind_claim(claim, identity)
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
            record["identity"] = identity
            write_atomic(os.path.join(ledger, token), json.dumps(record) + "\n")
            report["status"] = "started"
        for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
            report[key] = identity.get(key)
        return report
    finally:
        os.close(lock)


def cut_short(directory, launched):
    """Whether a launch this node recorded never got as far as running its job: no wrapper
    armed (the job starts only after "armed"), no exit status, no pid file. Called when no
    wrapper of the launch lives."""
    return launched is not None and read_exit(directory) is None \
        and not os.path.exists(os.path.join(directory, "armed")) \
        and not os.path.exists(os.path.join(directory, "pid"))


def start_wrapper(directory, job_umask, children, token):
    """Starts the wrapper detached (new session, stdio on /dev/null), waits until it has
    armed its TERM trap (so a kill right after the launch cannot kill it before it records
    a status), and returns its identity."""
    import subprocess
    child = subprocess.Popen(["bash", "-c", WRAPPER, WRAPPER_MARK, "%04o" % job_umask, token],
                             cwd=directory, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             close_fds=True, start_new_session=True)
    children.append(child)  # reaped later; until then /proc/PID/stat stays readable
    stat = proc_stat(child.pid)
    if stat is None:
        raise OSError(0, "the wrapper process could not be identified")
    deadline = time.time() + ARM_WAIT_S
    while not os.path.exists(os.path.join(directory, "armed")) and child.poll() is None \
            and time.time() < deadline:
        time.sleep(0.002)
    return {"pid": child.pid, "pgid": stat[1], "start_ticks": stat[3],
            "boot_id": current_boot_id(), "started_at": time.time()}


def kill_job(entry):
    """Stops one job: TERM to its process group (or, when its wrapper is gone, to every group
    of the wrapper's session still alive), then KILL after the grace period. Only a process
    whose identity matches what was recorded at launch is ever signalled."""
    report = {"id": entry.get("id"), "status": "gone", "reason": None}
    directory = node_path(field(entry, "dir", str))
    pid, ticks = field(entry, "pid", int), field(entry, "start_ticks", int)
    boot_id = entry.get("boot_id")
    grace = field(entry, "grace_s", (int, float), 10)
    stat = proc_stat(pid)
    if boot_id != current_boot_id():
        report["reason"] = "the node restarted since the launch"
        return report
    if stat is not None and stat[3] != ticks:
        report["status"] = "not_ours"
        report["reason"] = "process %d is not the wrapper of %s" % (pid, directory)
        return report
    token = entry.get("token") if isinstance(entry.get("token"), str) else None
    if stat is not None and stat[0] != "Z" and not is_wrapper(pid, directory, ticks, token):
        report["status"] = "not_ours"
        report["reason"] = "process %d is not the wrapper of %s" % (pid, directory)
        return report
    wrapper_alive = stat is not None and stat[0] != "Z"
    if not wrapper_alive and not session_members(pid, ticks):
        report["reason"] = "no process %d" % pid
        return report
    try:
        write_atomic(os.path.join(directory, "cancel"), "\n")
    except OSError:
        pass  # the directory is gone: the job has started long ago, its group is signalled
    for group in job_groups(directory, pid, ticks):
        try:
            os.killpg(group, signal.SIGTERM)
        except OSError as e:
            if e.errno != errno.ESRCH:
                report["reason"] = "cannot signal the job: %s" % e.strerror
                report["status"] = "not_ours"
                return report
    detach(kill_after_grace, directory, pid, ticks, boot_id, grace)
    report["status"] = "signalled"
    if not wrapper_alive:
        report["reason"] = "its wrapper was gone; the processes left in its session were signalled"
    return report


def job_groups(directory, wrapper, ticks):
    """The job's process groups: the one it wrote to jobpgid, if that group lies in the
    wrapper's session; without it (the job has not started, or its directory is gone) every
    group of the session's live members but the wrapper's own."""
    try:
        with os.fdopen(open_nofollow(os.path.join(directory, "jobpgid")), "r") as f:
            pgid = int(f.read().strip())
    except (IOError, OSError, ValueError):
        pgid = None
    if pgid is not None:
        members = group_members(pgid)
        if members and all((proc_stat(member) or (None, None, None))[2] == wrapper for member in members):
            return [pgid]
    groups = set()
    for member in session_members(wrapper, ticks):
        stat = proc_stat(member)
        if stat is not None and stat[1] != wrapper:
            groups.add(stat[1])
    return sorted(groups)


def group_members(pgid):
    members = []
    for name in os.listdir("/proc"):
        stat = proc_stat(int(name)) if name.isdigit() else None
        if stat is not None and stat[1] == pgid:
            members.append(int(name))
    return members


def job_gone(pid, ticks, boot_id):
    """True when neither the wrapper nor any process of its session is alive."""
    return liveness({"pid": pid, "start_ticks": ticks, "boot_id": boot_id}) is None


def wait_gone(pid, ticks, boot_id, seconds, whole_session=False):
    deadline = time.time() + seconds
    while alive(pid, ticks, boot_id) or (whole_session and not job_gone(pid, ticks, boot_id)):
        if time.time() >= deadline:
            return False
        time.sleep(0.05)
    return True


def kill_after_grace(directory, pid, ticks, boot_id, grace):
    """Runs detached: KILLs the job's process groups if the job outlives the grace period.
    Only the job's groups: the wrapper is left to record the exit status (and is KILLed
    itself only if it has not ended 5 s later)."""
    if wait_gone(pid, ticks, boot_id, grace, whole_session=True):
        return
    for group in job_groups(directory, pid, ticks):
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    if not wait_gone(pid, ticks, boot_id, KILL_SETTLE_S) and alive(pid, ticks, boot_id):
        os.kill(pid, signal.SIGKILL)


def detach(function, *args):
    """Runs function(*args) in a grandchild in its own session, holding none of our pipes,
    so the reply (and the SSH channel) does not wait for it."""
    sys.stdout.flush()
    sys.stderr.flush()
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    try:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.closerange(3, 4096)
            function(*args)
    except BaseException:
        pass
    finally:
        os._exit(0)


def remove_job_dir(entry, request):
    """Removes one finished job's directory, <job_root>/<queue>/<job> with all its attempts
    (retention: the queue asks only for jobs that ended long ago). Only a real directory of
    ours exactly two levels under job_root, reached without following a symbolic link, and
    never while a process of one of its attempts is alive or when it holds an attempt newer
    than the request's "attempt" (the job was requeued and launched again): "running" then,
    and nothing is removed. "absent" when it is already gone."""
    import shutil
    job_root = request.get("job_root")
    root = node_path(job_root if isinstance(job_root, str) and job_root else DEFAULT_JOB_ROOT)
    directory = node_path(field(entry, "dir", str))
    result = {"id": entry.get("id"), "dir": entry.get("dir")}
    relative = os.path.relpath(directory, root)
    parts = relative.split(os.sep)
    if len(parts) != 2 or any(part in (os.curdir, os.pardir) or part.startswith(".") for part in parts):
        raise UnsafePath("%s is not a job directory <job_root>/<queue>/<job> under %s" % (directory, root))
    euid = os.geteuid()
    path = root
    for part in [""] + parts:
        path = os.path.join(path, part) if part else path
        try:
            info = os.lstat(path)
        except OSError as e:
            if e.errno == errno.ENOENT:
                result["status"] = "absent"
                return result
            raise
        if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
            raise UnsafePath("%s is not a directory (a link or a file is in its place); nothing removed" % path)
        if info.st_uid != euid:
            raise UnsafePath("%s is owned by uid %d, not by you; nothing removed" % (path, info.st_uid))
    last = entry.get("attempt")
    for attempt in os.listdir(directory):
        if isinstance(last, int) and not isinstance(last, bool) and attempt.isdigit() and int(attempt) > last:
            result["status"] = "running"  # requeued and launched again since the queue asked
            return result
        attempt_dir = os.path.join(directory, attempt)
        if os.path.isdir(attempt_dir) and not os.path.islink(attempt_dir) \
                and liveness(read_identity(attempt_dir)) is not None:
            result["status"] = "running"
            return result
    shutil.rmtree(directory)
    result["status"] = "removed"
    return result


# --- Slurm: a node whose jobs Slurm places (docs/agent-protocol.md, "Slurm") -------------------

SLURM_PREFIX = "nvidb-"  # a launch's Slurm job name is this and its token: found again by name
SLURM_TIMEOUT_S = 30
SLURM_SQUEUE_FORMAT = "%i|%T|%r|%j"  # id, state, reason, name; Java parses the line (SlurmJob)
SLURM_SACCT_FORMAT = "JobIDRaw,State,ExitCode,Reason"
SLURM_ACTIVE = ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED",
                "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED")
# The batch script: run.sh in the attempt directory (Slurm's --chdir), its exit status recorded
# where the queue reads it; a job cancelled before Slurm started it does not start.
SLURM_BATCH = """#!/bin/bash
# nvidb batch wrapper: generated
umask %s
[ -e cancel ] && exit 143
bash run.sh </dev/null
code=$?
printf '%%s %%s\\n' "$code" "$(date +%%s)" > exit.tmp && mv -f exit.tmp exit
exit "$code"
"""


class SlurmError(BadEntry):
    pass


def slurm_run(slurm, name, *args):
    """(exit status, stdout, stderr) of one of Slurm's commands; a missing one is 127."""
    import subprocess
    folder = slurm.get("bin")
    command = [os.path.join(node_path(folder), name) if folder else name] + list(args)
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, close_fds=True)
    except OSError as e:
        return 127, "", "%s: %s" % (command[0], e.strerror or e)
    try:
        out, err = child.communicate(timeout=SLURM_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return 124, "", "%s did not answer in %d s" % (name, SLURM_TIMEOUT_S)
    return child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def slurm_fail(name, code, err):
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    raise SlurmError("%s failed (status %d)%s" % (name, code, ": " + lines[-1] if lines else ""))


class SlurmJobs(object):
    """What Slurm knows of this user's jobs, asked once per request: one squeue for every job it
    still holds (ended ones too, for MinJobAge), one sacct for those it does not (where there is
    accounting)."""

    def __init__(self, slurm):
        self.slurm = slurm
        self.by_id, self.by_name, self.error = None, {}, None

    def load(self):
        if self.by_id is not None or self.error is not None:
            return
        code, out, err = slurm_run(self.slurm, "squeue", "-h", "--me", "-t", "all", "-o", SLURM_SQUEUE_FORMAT)
        if code != 0:
            try:
                slurm_fail("squeue", code, err)
            except SlurmError as e:
                self.error = str(e)
            return
        self.by_id = {}
        for line in out.splitlines():
            fields = line.strip().split("|")
            if len(fields) >= 4 and fields[0].isdigit():
                self.by_id[fields[0]] = line.strip()
                self.by_name.setdefault(fields[3], []).append(int(fields[0]))

    def squeue(self, job_id):
        self.load()
        if self.error is not None:
            raise SlurmError(self.error)
        return self.by_id.get(str(job_id))

    def find(self, token):
        """The Slurm job id whose name carries the token, or None: squeue, then sacct."""
        self.load()
        if self.error is not None:
            raise SlurmError(self.error)
        ids = self.by_name.get(SLURM_PREFIX + token)
        if ids:
            return min(ids)
        code, out, _ = slurm_run(self.slurm, "sacct", "-n", "-X", "-P", "--name", SLURM_PREFIX + token,
                                 "-S", "now-30days", "-o", "JobIDRaw")
        ids = [int(line.strip()) for line in out.splitlines() if code == 0 and line.strip().isdigit()]
        return min(ids) if ids else None

    def sacct(self, job_id):
        code, out, _ = slurm_run(self.slurm, "sacct", "-n", "-X", "-P", "-j", str(job_id), "-o", SLURM_SACCT_FORMAT)
        for line in out.splitlines() if code == 0 else []:
            if line.split("|")[0].strip() == str(job_id):
                return line.strip()
        return None


def slurm_submit(entry, slurm, directory, token):
    """sbatch for one attempt; returns Slurm's job id."""
    args = ["--parsable", "--no-requeue", "--job-name=" + SLURM_PREFIX + token,
            "--comment=nvidb job %s attempt %s" % (entry.get("id"), entry.get("attempt")),
            "--partition=" + slurm["partition"], "--chdir=" + directory,
            "--output=" + os.path.join(directory, "stdout.log"),
            "--error=" + os.path.join(directory, "stderr.log")]
    for key, option in (("account", "--account="), ("qos", "--qos=")):
        if slurm.get(key):
            args.append(option + slurm[key])
    gpus = entry.get("gpus") or 0
    if isinstance(gpus, int) and gpus > 0:
        args.append("--gres=gpu:%d" % gpus)
    timeout = entry.get("timeout_s")
    if isinstance(timeout, int) and timeout > 0:
        args.append("--time=%d" % max(1, (timeout + 59) // 60))
    elif slurm.get("time_limit"):
        args.append("--time=" + slurm["time_limit"])
    args.append(os.path.join(directory, "slurm.sh"))
    code, out, err = slurm_run(slurm, "sbatch", *args)
    job_id = out.strip().split(";")[0]
    if code != 0 or not job_id.isdigit():
        slurm_fail("sbatch", code, err or out)
    return int(job_id)


def slurm_launch(entry, request, slurm, job_umask):
    """Submits one attempt to Slurm, at most once ever: under the directory's lock, the ledger and
    then Slurm itself (a job named by the token) are asked first, so a submit whose agent died
    before recording Slurm's answer is found and adopted, never submitted again."""
    report = {"id": entry.get("id"), "attempt": entry.get("attempt"), "status": "failed", "error": None}
    directory, token, script, ledger, root = launch_paths(entry, request)
    private_dirs(root, directory)
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        held = held_token(directory)
        if held is not None and held != token:
            report["error"] = "%s already holds another launch token" % directory
            return report
        launched = read_ledger(ledger, token) or {}
        job_id = launched.get("slurm_job_id") or SlurmJobs(slurm).find(token)
        if job_id is not None:
            report["status"] = "adopted"
        else:
            write_atomic(os.path.join(directory, "token"), token + "\n")
            write_atomic(os.path.join(directory, "run.sh"), script, 0o700)
            write_atomic(os.path.join(directory, "slurm.sh"), SLURM_BATCH % ("%04o" % job_umask), 0o700)
            private_dirs(root, os.path.join(directory, "work"))
            job_id = slurm_submit(entry, slurm, directory, token)
            report["status"] = "started"
        if not launched.get("slurm_job_id"):
            write_atomic(os.path.join(ledger, token), json.dumps(
                {"dir": directory, "launched_at": launched.get("launched_at") or time.time(),
                 "slurm_job_id": job_id}) + "\n")
        report.update({"pid": job_id, "pgid": job_id, "start_ticks": 0, "boot_id": "slurm",
                       "started_at": launched.get("launched_at") or time.time()})
        return report
    finally:
        os.close(lock)


def slurm_query(entry, tail_lines, ledger, jobs):
    """What Slurm and the attempt directory say of one attempt; the Java side decides what it means
    (SlurmStates). "missing" only when neither the ledger nor Slurm knows a job of its token."""
    report = job_report(entry, "missing")
    directory = node_path(field(entry, "dir", str))
    token = field(entry, "token", str)
    ours = held_token(directory) == token
    launched = read_ledger(ledger, token) or {}
    job_id = entry.get("pid") if entry.get("boot_id") == "slurm" else None
    job_id = job_id or launched.get("slurm_job_id") or jobs.find(token)
    if job_id is None:
        report["reason"] = "Slurm has no job named %s%s" % (SLURM_PREFIX, token)
        return report
    line = jobs.squeue(job_id)
    report.update({"status": "slurm", "slurm_job_id": job_id, "squeue": line,
                   "sacct": None if line is not None else jobs.sacct(job_id),
                   "started_at": launched.get("launched_at")})
    if not ours:
        return report
    finished = read_exit(directory)
    if finished is not None:
        report["exit_code"], report["finished_at"] = finished
    report["progress"] = progress(directory)
    collect_result(directory, report)
    state = (line or "").split("|")[1:2]
    if not (state and state[0] in SLURM_ACTIVE) and (finished is None or finished[0] != 0):
        report["log_tail"] = (tail(os.path.join(directory, "stderr.log"), tail_lines)
                              or tail(os.path.join(directory, "stdout.log"), tail_lines))
        report["failure_log"] = failure_log(directory)
    return report


def slurm_kill(entry, jobs):
    """scancel of an attempt's Slurm job (the "pid" the queue recorded), only when Slurm holds it
    under this attempt's token; a job not yet started finds "cancel" and does not start."""
    report = {"id": entry.get("id"), "status": "gone", "reason": None}
    job_id = field(entry, "pid", int)
    token = entry.get("token")
    line = jobs.squeue(job_id)
    if line is None or line.split("|")[1] not in SLURM_ACTIVE:
        report["reason"] = "Slurm job %d is no longer running" % job_id
        return report
    if isinstance(token, str) and line.split("|")[3] != SLURM_PREFIX + token:
        report["status"] = "not_ours"
        report["reason"] = "Slurm job %d belongs to another launch" % job_id
        return report
    directory = entry.get("dir")
    if isinstance(directory, str) and directory:
        try:
            write_atomic(os.path.join(node_path(directory), "cancel"), "")
        except OSError:
            pass  # scancel stops it either way
    code, _, err = slurm_run(jobs.slurm, "scancel", str(job_id))
    if code != 0:
        slurm_fail("scancel", code, err)
    report["status"] = "signalled"
    report["reason"] = "scancel %d" % job_id
    return report


def slurm_partition(slurm):
    """The partition's state for queue nodes: sinfo's lines (partition, availability, nodes
    allocated/idle/other/total, CPUs the same, GRES), or the error."""
    code, out, err = slurm_run(slurm, "sinfo", "-h", "-p", slurm["partition"], "-o", "%R|%a|%F|%C|%G")  # SlurmPartition.SINFO_FORMAT
    if code != 0:
        return {"lines": [], "error": "sinfo failed (status %d): %s" % (code, err.strip()[-300:])}
    return {"lines": [line.strip() for line in out.splitlines() if line.strip()], "error": None}


def sessions(reply):
    """sid and pgid of every GPU process, so GPU memory can be charged to jobs."""
    table = {}
    for gpu in reply["gpus"]:
        for process in gpu["processes"]:
            stat = proc_stat(process["pid"])
            if stat is not None:
                table[str(process["pid"])] = {"sid": stat[2], "pgid": stat[1]}
    return table


def each(request, name, handle):
    """Applies handle to every entry of a request list; a bad entry fails alone."""
    results = []
    entries = request.get(name)
    for entry in entries if isinstance(entries, list) else []:
        entry = entry if isinstance(entry, dict) else {}
        try:
            results.append(handle(entry))
        except (BadEntry, OSError) as e:
            failed = {"id": entry.get("id"), "attempt": entry.get("attempt"),
                      "status": "failed" if name == "launch" else "error"}
            message = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            where = getattr(e, "filename", None)
            failed["error"] = "%s: %s" % (where, message) if where else message
            results.append(failed)
    return results


def keep_code():
    """Answers "keep_code": true. An agent started without keeping its compiled code (the
    bootstrap's "read" word: its command line was not yet known to be valid) that had to
    compile the script writes that code into the node's cache now, as a keeping start does; one
    that ran kept code, or was started some other way, has nothing to write."""
    later, keep = globals().get("_nvidb_later"), globals().get("_nvidb_keep")
    if later is not None and keep is not None:
        globals()["_nvidb_later"] = None
        keep(*later)


# The longest one "await_exit" request may hold its agent, and how often it looks.
AWAIT_EXIT_LIMIT_MS = 10000
AWAIT_EXIT_STEP_S = 0.005


def await_exit(entry):
    """Answers {"await_exit": {"dirs": [...], "ms": N}}: waits until one of the attempt
    directories has its exit status (or is gone), looking every 5 ms for at most N ms (10 s at
    most), and names those that have. Nothing else is done or changed: a client waiting for
    its jobs learns that one ended at once instead of at its next tick, then ticks."""
    reply = {"schema_version": SCHEMA_VERSION, "error": None, "exited": []}
    dirs, limit = entry.get("dirs"), entry.get("ms")
    if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs) \
            or not isinstance(limit, int) or isinstance(limit, bool):
        reply["error"] = "bad request: 'await_exit' needs 'dirs' (a list of paths) and 'ms' (an integer)"
        return reply
    paths = [(d, node_path(d)) for d in dirs]
    deadline = time.monotonic() + max(0, min(limit, AWAIT_EXIT_LIMIT_MS)) / 1000.0
    while True:
        reply["exited"] = [d for d, path in paths
                           if os.path.exists(os.path.join(path, "exit")) or not os.path.isdir(path)]
        left = deadline - time.monotonic()
        if reply["exited"] or left <= 0:
            return reply
        time.sleep(min(AWAIT_EXIT_STEP_S, left))


def empty_reply():
    return {"schema_version": SCHEMA_VERSION, "source": "none", "error": None, "node": None,
            "driver_version": None, "nvml_version": None, "cuda_version": None, "gpus": [],
            "jobs": [], "sessions": {}, "launches": [], "kills": [], "logs": [], "removed_dirs": []}


class Agent(object):
    """Answers requests; NVML is initialised once and kept for the agent's lifetime."""

    def __init__(self):
        self.nvml = None
        self.cpu = CpuMeter()  # kept between requests: a resident agent measures from the last one
        self.children = []  # launched wrappers not yet reaped
        # Files the agent and the wrapper write are private (env values are in run.sh);
        # the job itself gets the umask the agent was started with.
        self.job_umask = os.umask(0o077)

    def reply(self, request):
        """Kills, then launches, then the snapshot, then the job queries (which so see
        this request's launches and kills), then the log reads. An "await_exit" request is
        answered alone (see await_exit)."""
        self.children = [child for child in self.children if child.poll() is None]
        if request.get("keep_code") is True:
            keep_code()
        if isinstance(request.get("await_exit"), dict):
            return await_exit(request["await_exit"])
        slurm = request.get("slurm")
        if isinstance(slurm, dict) and isinstance(slurm.get("partition"), str):
            return self.slurm_reply(request, slurm)
        kills = each(request, "kill", kill_job)
        launches = each(request, "launch",
                        lambda entry: launch_job(entry, request, self.job_umask, self.children, self))
        if any(launch.get("status") == "started" for launch in launches):
            prune_ledger(ledger_dir(request))
        if request.get("snapshot", True) is False \
                and all(launch.get("status") in ("started", "adopted") for launch in launches):
            # A launch round carries the demand left once its jobs are placed: a job that started
            # here stops counting as waiting now, not at this queue's next probe. When one did not
            # start (lost its card, failed) the probe's demand stays: never less than what waits.
            try:
                publish_demand(request)
            except (BadEntry, OSError):
                pass  # the probe that follows says what is wrong with the claims directory
        reply = empty_reply()
        reply["node"] = node_info(request)
        if request.get("snapshot", True) is not False:
            self.snapshot(reply)
        lines = request.get("log_tail_lines", 20)
        lines = lines if isinstance(lines, int) and not isinstance(lines, bool) else 20
        ledger = ledger_dir(request)
        reply["jobs"] = each(request, "jobs", lambda entry: query_job(entry, lines, ledger))
        reply["logs"] = each(request, "logs", read_log)
        reply["sessions"] = sessions(reply)
        if request.get("snapshot", True) is not False:
            reply["claims"] = claims_report(request, reply)
        reply["launches"], reply["kills"] = launches, kills
        reply["removed_dirs"] = each(request, "remove_dirs", lambda entry: remove_job_dir(entry, request))
        return reply

    def slurm_reply(self, request, slurm):
        """The same request to a Slurm node: kills are scancel, launches sbatch, job queries
        squeue/sacct and the attempt directory; the snapshot is the partition's state (the login
        node's own GPUs are not the queue's)."""
        kills = each(request, "kill", lambda entry: slurm_kill(entry, SlurmJobs(slurm)))
        launches = each(request, "launch", lambda entry: slurm_launch(entry, request, slurm, self.job_umask))
        reply = empty_reply()
        reply["node"] = node_info(request)
        if request.get("snapshot", True) is not False:
            reply["slurm"] = slurm_partition(slurm)
        lines = request.get("log_tail_lines", 20)
        lines = lines if isinstance(lines, int) and not isinstance(lines, bool) else 20
        ledger = ledger_dir(request)
        jobs = SlurmJobs(slurm)
        reply["jobs"] = each(request, "jobs", lambda entry: slurm_query(entry, lines, ledger, jobs))
        reply["logs"] = each(request, "logs", read_log)
        reply["launches"], reply["kills"] = launches, kills
        reply["removed_dirs"] = each(request, "remove_dirs", lambda entry: remove_job_dir(entry, request))
        return reply

    def snapshot(self, reply):
        if self.nvml is None:
            # Retried on every request while it fails: the driver may come back.
            self.nvml, nvml_error = load_nvml()
        if self.nvml is not None:
            nvml_reply(self.nvml, reply)
            describe_processes(reply, self.cpu, PcieSampler(self.nvml, reply["gpus"]).run)
            return
        try:
            notes = smi_reply(reply)
            reply["error"] = "; ".join([nvml_error] + notes)
            describe_processes(reply, self.cpu)
        except RuntimeError as e:
            if nvml_error.startswith("cannot load"):
                nvml_error = "NVIDIA driver not found: " + nvml_error
                reply["error"] = "%s and %s" % (nvml_error, e)
            else:
                reply["error"] = "%s; %s" % (nvml_error, e)

    def answer(self, line):
        request = {}
        if line.strip():
            try:
                request = json.loads(line)
            except ValueError as e:
                sys.stderr.write("nvidb agent: ignoring invalid request: %s\n" % e)
            if not isinstance(request, dict):
                request = {}
        try:
            reply = self.reply(request)
        except Exception as e:  # the protocol must survive an agent bug
            reply = empty_reply()
            reply["error"] = "agent internal error: %s: %s" % (type(e).__name__, e)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def main(argv):
    stdin = sys.stdin.buffer  # the bootstrap already read the script from this buffer
    agent = Agent()
    if "--serve" in argv:
        for line in iter(stdin.readline, b""):
            agent.answer(line.decode("utf-8", "replace"))
    else:
        agent.answer(stdin.readline().decode("utf-8", "replace"))
    if agent.nvml is not None:
        try:
            agent.nvml.call("nvmlShutdown")
        except NvmlError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
