# nvidb node agent: answers JSON requests about this node's GPUs (docs/agent-protocol.md).
# Python 3.6+ standard library only: it is streamed to the node over SSH at every use and
# run with exec(), so it must not rely on __file__, installed packages or newer syntax.
# Stdout carries protocol replies only; diagnostics go to stderr.
import base64
import ctypes
import errno
import fcntl
import json
import os
import pwd
import signal
import socket
import struct
import subprocess
import sys
import time

SCHEMA_VERSION = 1
MIB = 1048576
NOT_AVAILABLE = 0xFFFFFFFFFFFFFFFF  # NVML_VALUE_NOT_AVAILABLE for usedGpuMemory
COMMAND_LIMIT = 512
NVML_LIBRARIES = ("libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1")
SMI_TIMEOUT_S = 20

NVML_SUCCESS = 0
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25
# Errors that only mean "this field is not available here": the field becomes null and
# the GPU stays healthy. Any other error marks the GPU as failed (its state is unknown).
FIELD_ONLY_ERRORS = (3, 4, 6, 13)  # NOT_SUPPORTED, NO_PERMISSION, NOT_FOUND, FUNCTION_NOT_FOUND

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
        total, used, free = v2.total, v2.used, v2.free
    else:
        v1 = Memory()
        # Not optional(): placement needs memory, so any failure here is the GPU's error.
        if not nvml.call("nvmlDeviceGetMemoryInfo", handle, ctypes.byref(v1)):
            return
        total, used, free = v1.total, v1.used, v1.free
    gpu["mem_total_mb"] = total // MIB
    gpu["mem_used_mb"] = used // MIB
    gpu["mem_free_mb"] = free // MIB


SENTINEL = 0xA5


def process_list(nvml, handle, kind):
    """[(pid, used bytes or None)] from the newest process call the driver has, or None.

    The _v3 entry stride differs between drivers: 24 bytes (nvml.h), or 32 bytes on some
    R535 drivers that append usedGpuCcProtectedMemory. The buffer is pre-filled with a
    sentinel byte and sized for 32-byte entries; a driver writing n entries of 24 bytes
    leaves bytes [24n, 32n) untouched, one writing 32-byte entries overwrites them (its
    last entry's tail). So any non-sentinel byte there means stride 32.
    """
    base = "nvmlDeviceGet%sRunningProcesses" % kind
    for suffix, stride in (("_v3", None), ("_v2", 24), ("", 16)):
        function = nvml.symbol(base + suffix)
        if function is not None:
            break
    else:
        return None
    capacity = 32
    for _ in range(5):  # processes may start between the sizing call and the next one
        size = capacity * 32
        buffer = ctypes.create_string_buffer(size)
        ctypes.memset(buffer, SENTINEL, size)
        count = ctypes.c_uint(capacity)
        code = function(handle, ctypes.byref(count), buffer)
        if code == NVML_ERROR_INSUFFICIENT_SIZE:
            capacity = count.value + 16
            continue
        if code != NVML_SUCCESS:
            raise NvmlError(code, nvml.message(code))
        raw, n = buffer.raw, min(count.value, capacity)
        if stride is None:
            tail = raw[24 * n:32 * n]
            stride = 32 if tail.count(SENTINEL) != len(tail) else 24
        result = []
        for i in range(n):
            pid, used = struct.unpack_from("=I4xQ", raw, i * stride)
            result.append((pid, None if used == NOT_AVAILABLE else used))
        return result
    raise NvmlError(NVML_ERROR_INSUFFICIENT_SIZE, "process list kept growing")


def read_proc(pid, name, binary=False):
    try:
        with open("/proc/%d/%s" % (pid, name), "rb") as f:
            data = f.read()
    except (IOError, OSError):
        return None
    return data if binary else data.decode("utf-8", "replace").strip()


def process_details(pid, nvml_name=None):
    """Owner, name and command line of a process from /proc (None when gone)."""
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
    if command is not None:
        command = command.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
        command = command[:COMMAND_LIMIT] or None
    return {"user": user, "name": read_proc(pid, "comm") or nvml_name, "command": command}


def gpu_processes(nvml, handle):
    found = {}
    order = []
    for kind in ("Compute", "Graphics"):
        entries = optional(process_list, nvml, handle, kind) or []
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


def empty_gpu(index):
    gpu = {"index": index}
    for key in ("uuid", "pci_bus_id", "name", "mem_total_mb", "mem_used_mb", "mem_free_mb",
                "mem_reserved_mb", "util_percent", "mem_util_percent", "temperature_c",
                "power_w", "power_limit_w", "error"):
        gpu[key] = None
    gpu["processes"] = []
    return gpu


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
        gpu.update({
            "uuid": smi_value(parts[1]), "pci_bus_id": smi_value(parts[2]),
            "name": smi_value(parts[3]), "mem_total_mb": smi_value(parts[4], int),
            "mem_used_mb": smi_value(parts[5], int), "mem_free_mb": smi_value(parts[6], int),
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


def node_info(request):
    boot_id = current_boot_id()
    try:
        load = [round(value, 2) for value in os.getloadavg()]
    except OSError:
        load = None
    job_root = request.get("job_root")
    path, free = disk(job_root if isinstance(job_root, str) and job_root else "~/.nvidb/jobs")
    return {"hostname": socket.gethostname(), "boot_id": boot_id, "time": time.time(),
            "load": load, "cpu_count": os.cpu_count(), "disk_path": path,
            "disk_free_mb": free, "python": "%d.%d.%d" % sys.version_info[:3]}


# --- jobs on this node: query, launch, kill (docs/agent-protocol.md, "Jobs") ---
#
# One directory per attempt holds: token, run.sh, pid (JSON identity written by the agent),
# stdout.log, stderr.log, exit ("CODE FINISHED_AT", written by the wrapper via exit.tmp),
# and what the job writes itself: status (progress lines) and result.json.

LOG_TAIL_BYTES = 8192
LOG_READ_LIMIT = 1048576  # the most bytes one log read returns (before base64)
PROGRESS_LIMIT = 500
RESULT_LIMIT = 1048576
KILL_SETTLE_S = 5
ARM_WAIT_S = 2
WRAPPER_MARK = "nvidb-wrapper"
# The wrapper is started in a new session, in the attempt directory, with "$1" = the umask
# the job should get. It never dies of TERM (trapped, so children still get the default
# action) and announces that with the file "armed". Job control (set -m) puts the job in a
# process group of its own, whose id the job writes to "jobpgid" before it starts: kills go
# to that group only, never to the wrapper or the helpers it runs to record the status
# (143 after TERM, 137 after KILL). A "cancel" file written before the job started stops it
# from starting: the kill writes "cancel" then reads "jobpgid", the job writes "jobpgid"
# then reads "cancel", so one of them always sees the other.
WRAPPER = r"""trap ':' TERM
: >armed
set -m
( echo "$BASHPID" >jobpgid.tmp && mv -f jobpgid.tmp jobpgid
  [ -e cancel ] && exit 143
  umask "$1"; exec bash run.sh ) >stdout.log 2>stderr.log </dev/null
code=$?
printf '%s %s\n' "$code" "$(date +%s.%N)" >exit.tmp && mv -f exit.tmp exit
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


def read_text(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read() if limit is None else f.read(limit)
    except (IOError, OSError):
        return None
    return data.decode("utf-8", "replace")


def write_atomic(path, text, mode=0o600):
    temporary = path + ".tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(temporary, mode)  # an old .tmp file may have had other bits
    os.rename(temporary, path)


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


def read_identity(directory):
    """The wrapper identity the agent recorded at launch (the pid file), or None."""
    try:
        record = json.loads(read_text(os.path.join(directory, "pid")) or "")
        int(record["pid"]), int(record["start_ticks"])
        return record
    except (ValueError, TypeError, KeyError):
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


def is_wrapper(pid, directory, start_ticks):
    """True when the process is the wrapper of this directory (its cwd, or its pid file)."""
    if same_dir(pid, directory):
        return True
    recorded = read_identity(directory)
    return recorded is not None and recorded["pid"] == pid \
        and recorded["start_ticks"] == start_ticks


def find_wrapper(directory):
    """The identity of a live wrapper of this directory that has no pid file (the agent
    that started it died before writing one), found by its marker and cwd; or None."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        command = read_proc(pid, "cmdline", binary=True) or b""
        stat = proc_stat(pid)
        if WRAPPER_MARK.encode() in command.split(b"\0") and stat and stat[0] != "Z" \
                and same_dir(pid, directory):
            return {"pid": pid, "pgid": stat[1], "start_ticks": stat[3],
                    "boot_id": current_boot_id(), "started_at": None}
    return None


def read_end(path, size):
    """The last size bytes of a file and whether it was longer; (None, False) if unreadable."""
    try:
        with open(path, "rb") as f:
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
        f = open(os.path.join(directory, stream + ".log"), "rb")
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
        if os.path.getsize(path) > RESULT_LIMIT:
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
                "finished_at", "progress", "result", "result_error", "log_tail", "reason"):
        report[key] = None
    return report


def query_job(entry, tail_lines):
    report = job_report(entry, "missing")
    directory = node_path(field(entry, "dir", str))
    token = read_text(os.path.join(directory, "token"))
    if token is None or token.strip() != field(entry, "token", str):
        report["reason"] = ("no launch here (%s has no token)" % directory if token is None
                            else "%s holds another launch token" % directory)
        return report
    identity = read_identity(directory)
    if identity is None:
        # The agent that launched it died before writing the pid file: find the wrapper by
        # its marker and directory, and record it so later probes and kills know it.
        identity = find_wrapper(directory)
        if identity is not None:
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
    # Invariant: liveness first, then the exit file, re-read before calling a job gone.
    running = identity is not None and alive(identity["pid"], identity["start_ticks"],
                                             identity.get("boot_id"))
    finished = None if running else (read_exit(directory) or read_exit(directory))
    for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
        report[key] = (identity or {}).get(key)
    if running:
        report["status"] = "running"
    elif finished is not None:
        report["status"] = "exited"
        report["exit_code"], report["finished_at"] = finished
    elif identity is None:
        report["reason"] = "the launch in %s did not complete" % directory
        return report
    else:
        report["status"] = "vanished"
        report["reason"] = "the wrapper is gone and left no exit status"
    report["progress"] = progress(directory)
    collect_result(directory, report)
    if report["status"] == "vanished" or report["exit_code"] != 0:
        report["log_tail"] = (tail(os.path.join(directory, "stderr.log"), tail_lines)
                              or tail(os.path.join(directory, "stdout.log"), tail_lines))
    return report


def launch_job(entry, job_umask, children):
    report = job_report(entry, "failed")
    del report["exit_code"], report["finished_at"], report["progress"], report["result"]
    del report["result_error"], report["log_tail"], report["reason"]
    report["error"] = None
    directory = node_path(field(entry, "dir", str))
    token, script = field(entry, "token", str), field(entry, "script", str)
    os.makedirs(directory, 0o700, exist_ok=True)
    os.chmod(directory, 0o700)
    lock = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two agents launching the same attempt at once
        held = read_text(os.path.join(directory, "token"))
        if held is not None and held.strip() != token:
            report["error"] = "%s already holds another launch token" % directory
            return report
        identity = (read_identity(directory) or find_wrapper(directory)) if held else None
        if identity is None and held and read_exit(directory) is not None:
            identity = {}  # it ran and ended before its pid file was written
        if identity is not None:
            report["status"] = "adopted"
        else:
            write_atomic(os.path.join(directory, "token"), token + "\n")
            write_atomic(os.path.join(directory, "run.sh"), script, 0o700)
            identity = start_wrapper(directory, job_umask, children)
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
            report["status"] = "started"
        for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
            report[key] = identity.get(key)
        return report
    finally:
        os.close(lock)


def start_wrapper(directory, job_umask, children):
    """Starts the wrapper detached (new session, stdio on /dev/null), waits until it has
    armed its TERM trap (so a kill right after the launch cannot kill it before it records
    a status), and returns its identity."""
    child = subprocess.Popen(["bash", "-c", WRAPPER, WRAPPER_MARK, "%04o" % job_umask],
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
    report = {"id": entry.get("id"), "status": "gone", "reason": None}
    directory = node_path(field(entry, "dir", str))
    pid, ticks = field(entry, "pid", int), field(entry, "start_ticks", int)
    boot_id = entry.get("boot_id")
    grace = field(entry, "grace_s", (int, float), 10)
    stat = proc_stat(pid)
    if boot_id != current_boot_id():
        report["reason"] = "the node restarted since the launch"
    elif stat is None or stat[0] == "Z":
        report["reason"] = "no process %d" % pid
    elif stat[3] != ticks or not is_wrapper(pid, directory, ticks):
        report["status"] = "not_ours"
        report["reason"] = "process %d is not the wrapper of %s" % (pid, directory)
    else:
        write_atomic(os.path.join(directory, "cancel"), "\n")
        job = job_group(directory, pid)
        if job is not None:
            try:
                os.killpg(job, signal.SIGTERM)
            except OSError as e:
                if e.errno != errno.ESRCH:
                    report["reason"] = "cannot signal the job: %s" % e.strerror
                    report["status"] = "not_ours"
                    return report
        detach(kill_after_grace, directory, pid, ticks, boot_id, grace)
        report["status"] = "signalled"
    return report


def job_group(directory, wrapper):
    """The job's process group (written by the job before it starts), if that group still
    exists inside the wrapper's session; None before the job started or after it ended."""
    try:
        with open(os.path.join(directory, "jobpgid")) as f:
            pgid = int(f.read().strip())
    except (IOError, OSError, ValueError):
        return None
    members = group_members(pgid)
    if not members or any((proc_stat(member) or (None, None, None))[2] != wrapper for member in members):
        return None
    return pgid


def group_members(pgid):
    members = []
    for name in os.listdir("/proc"):
        stat = proc_stat(int(name)) if name.isdigit() else None
        if stat is not None and stat[1] == pgid:
            members.append(int(name))
    return members


def wait_gone(pid, ticks, boot_id, seconds):
    deadline = time.time() + seconds
    while alive(pid, ticks, boot_id):
        if time.time() >= deadline:
            return False
        time.sleep(0.05)
    return True


def kill_after_grace(directory, pid, ticks, boot_id, grace):
    """Runs detached: KILLs the job's process group if the wrapper outlives the grace period.
    Only the job's group: the wrapper is left to record the exit status."""
    if wait_gone(pid, ticks, boot_id, grace):
        return
    job = job_group(directory, pid)
    if job is not None:
        try:
            os.killpg(job, signal.SIGKILL)
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


def empty_reply():
    return {"schema_version": SCHEMA_VERSION, "source": "none", "error": None, "node": None,
            "driver_version": None, "nvml_version": None, "cuda_version": None, "gpus": [],
            "jobs": [], "sessions": {}, "launches": [], "kills": [], "logs": []}


class Agent(object):
    """Answers requests; NVML is initialised once and kept for the agent's lifetime."""

    def __init__(self):
        self.nvml = None
        self.children = []  # launched wrappers not yet reaped
        # Files the agent and the wrapper write are private (env values are in run.sh);
        # the job itself gets the umask the agent was started with.
        self.job_umask = os.umask(0o077)

    def reply(self, request):
        """Kills, then launches, then the snapshot, then the job queries (which so see
        this request's launches and kills), then the log reads."""
        self.children = [child for child in self.children if child.poll() is None]
        kills = each(request, "kill", kill_job)
        launches = each(request, "launch",
                        lambda entry: launch_job(entry, self.job_umask, self.children))
        reply = empty_reply()
        reply["node"] = node_info(request)
        if request.get("snapshot", True) is not False:
            self.snapshot(reply)
        lines = request.get("log_tail_lines", 20)
        lines = lines if isinstance(lines, int) and not isinstance(lines, bool) else 20
        reply["jobs"] = each(request, "jobs", lambda entry: query_job(entry, lines))
        reply["logs"] = each(request, "logs", read_log)
        reply["sessions"] = sessions(reply)
        reply["launches"], reply["kills"] = launches, kills
        return reply

    def snapshot(self, reply):
        if self.nvml is None:
            # Retried on every request while it fails: the driver may come back.
            self.nvml, nvml_error = load_nvml()
        if self.nvml is not None:
            nvml_reply(self.nvml, reply)
            return
        try:
            notes = smi_reply(reply)
            reply["error"] = "; ".join([nvml_error] + notes)
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
