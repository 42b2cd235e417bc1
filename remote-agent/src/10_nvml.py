# --- NVML through ctypes: the driver's library read directly (docs/agent-protocol.md) -----------

NOT_AVAILABLE = 0xFFFFFFFFFFFFFFFF  # NVML_VALUE_NOT_AVAILABLE for usedGpuMemory
NVML_LIBRARIES = ("libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1")

# Values from nvml.h (docs/agent-protocol.md, "NVML audit against nvml.h").
NVML_SUCCESS = 0
NVML_ERROR_NO_PERMISSION = 4
NVML_ERROR_NOT_FOUND = 6
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25
NVML_DEVICE_MIG_ENABLE = 1
NVML_PCIE_UTIL_TX_BYTES = 0  # nvmlPcieUtilCounter_t: what the GPU sends
NVML_PCIE_UTIL_RX_BYTES = 1  # what it receives
# Errors that only mean "this field is not available here": the field becomes null and
# the GPU stays healthy. Any other error marks the GPU as failed (its state is unknown).
# NOT_SUPPORTED, NO_PERMISSION, NOT_FOUND, FUNCTION_NOT_FOUND, DEPRECATED
FIELD_ONLY_ERRORS = (3, 4, 6, 13, 26)


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
