/*
 * A fake libnvidia-ml.so.1 for tests: the NVML calls the node agent makes, answered from
 * the state file named by $NVIDB_FAKE_NVML_STATE (see README.md). Struct layouts and
 * return codes follow the real nvml.h so that the agent's ctypes code runs unchanged.
 *
 * NVML is thread-safe and the agent reads PCIe throughput from several threads at once, so
 * the state each call reloads is per thread (_Thread_local); handles and the init count are
 * shared, as in the real library.
 *
 * Build variants leave symbols out, as older drivers do:
 *   -DFAKE_NO_MEMORY_V2   no nvmlDeviceGetMemoryInfo_v2
 *   -DFAKE_NO_PROCESS_V3  no nvmlDevice{Compute,Graphics}RunningProcesses_v3
 *   -DFAKE_NO_PROCESS_V2  no nvmlDevice{Compute,Graphics}RunningProcesses_v2
 *
 * The types and constants come from fake_nvml_types.h, written from nvml.h; the audit of the
 * agent against the header is in docs/agent-protocol.md ("NVML audit against nvml.h").
 */
#include "fake_state.h"
#include "fake_nvml_types.h"

#define MIB 1048576ULL
#define EXPORT __attribute__((visibility("default")))

static _Thread_local fake_state S;
static int init_count;
/* Handles are addresses in these arrays, so they stay valid across state reloads: a GPU's
 * handle, and its MIG devices' handles (row: the GPU, column: the MIG device). */
static char handles[FAKE_MAX_GPUS];
static char mig_handles[FAKE_MAX_GPUS][FAKE_MAX_MIG];
/* Compute-list calls so far per GPU, for proc_growth (the agent lists from one thread). */
static int compute_calls[FAKE_MAX_GPUS];

static nvmlReturn_t reload(void) {
    int rc = fake_load(&S);
    if (rc == FAKE_LOAD_MISSING) return NVML_ERROR_DRIVER_NOT_LOADED;
    if (rc != FAKE_LOAD_OK) return NVML_ERROR_UNKNOWN;
    fake_hang(&S);
    return NVML_SUCCESS;
}

/* The MIG device a handle names (0..FAKE_MAX_MIG-1), or -1 for a GPU's own handle. */
static int mig_of(nvmlDevice_t device) {
    long cell = (char *)device - &mig_handles[0][0];
    return (cell >= 0 && cell < FAKE_MAX_GPUS * FAKE_MAX_MIG) ? (int)(cell % FAKE_MAX_MIG) : -1;
}

/* Every device query re-reads the state and fails with the GPU's scripted error. A MIG
 * device's handle answers for its parent GPU (and for a MIG device that still exists). */
static nvmlReturn_t gpu_of(nvmlDevice_t device, fake_gpu **out) {
    int mig = mig_of(device);
    long slot = mig >= 0 ? ((char *)device - &mig_handles[0][0]) / FAKE_MAX_MIG
                         : (char *)device - handles;
    nvmlReturn_t rc;
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    if ((rc = reload()) != NVML_SUCCESS) return rc;
    if (device == NULL || slot < 0 || slot >= FAKE_MAX_GPUS) return NVML_ERROR_INVALID_ARGUMENT;
    if ((*out = fake_find_gpu(&S, (int)slot)) == NULL) return NVML_ERROR_GPU_IS_LOST;
    if (mig >= (*out)->mig_devices) return NVML_ERROR_INVALID_ARGUMENT;  /* a destroyed MIG device */
    return (*out)->error ? (*out)->error : NVML_SUCCESS;
}

static nvmlReturn_t copy_out(char *dst, unsigned int length, const char *src) {
    if (dst == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(src) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(dst, src);
    return NVML_SUCCESS;
}

static nvmlReturn_t metric(long long value, unsigned int *out) {
    if (out == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (FAKE_IS_ERROR(value)) return FAKE_ERROR_CODE(value);
    if (value < 0) return NVML_ERROR_NOT_SUPPORTED;
    *out = (unsigned int)value;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlInit_v2(void) {
    nvmlReturn_t rc = reload();
    if (rc != NVML_SUCCESS) return rc;
    if (S.init_error) return S.init_error;
    init_count++;
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlInit(void) { return nvmlInit_v2(); }
EXPORT nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; return nvmlInit_v2(); }

EXPORT nvmlReturn_t nvmlShutdown(void) {
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    init_count--;
    return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t rc) {
    return fake_error_string(rc);
}

EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    return copy_out(version, length, S.driver);
}
EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    return copy_out(version, length, S.nvml);
}
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version) {
    if (version == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *version = S.cuda;
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version) {
    return nvmlSystemGetCudaDriverVersion(version);
}

EXPORT nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length) {
    int i;
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    reload();
    for (i = 0; i < S.nprocs; i++)
        if (S.procs[i].pid == pid && S.procs[i].name[0] != '\0')
            return copy_out(name, length, S.procs[i].name);
    return NVML_ERROR_NOT_FOUND;
}

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    nvmlReturn_t rc;
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if ((rc = reload()) != NVML_SUCCESS) return rc;
    *count = (unsigned int)S.ngpus;
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int *count) { return nvmlDeviceGetCount_v2(count); }

EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    nvmlReturn_t rc;
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    if (device == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if ((rc = reload()) != NVML_SUCCESS) return rc;
    if (index >= FAKE_MAX_GPUS || fake_find_gpu(&S, (int)index) == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = (nvmlDevice_t)&handles[index];
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device) {
    return nvmlDeviceGetHandleByIndex_v2(index, device);
}

EXPORT nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc == NVML_SUCCESS) *index = (unsigned int)g->index;
    return rc;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    return rc ? rc : copy_out(name, length, g->name);
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    return rc ? rc : copy_out(uuid, length, g->uuid);
}

static nvmlReturn_t pci_info(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (pci == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    memset(pci, 0, sizeof *pci);
    sscanf(g->pci, "%x:%x:%x", &pci->domain, &pci->bus, &pci->device);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0",
             pci->domain & 0xffff, pci->bus & 0xff, pci->device & 0xff);
    fake_copy(pci->busId, sizeof pci->busId, g->pci);
    pci->pciDeviceId = 0x233010DE;
    return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p) { return pci_info(d, p); }
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, nvmlPciInfo_t *p) { return pci_info(d, p); }

/* v1 reports reserved memory as used; v2 separates it (R510+ semantics). */
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (memory == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    memory->total = g->total_mib * MIB;
    memory->used = (g->used_mib + g->reserved_mib) * MIB;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

#ifndef FAKE_NO_MEMORY_V2
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (memory == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (memory->version != nvmlMemory_v2 || S.memory_v2_mismatch)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    memory->total = g->total_mib * MIB;
    memory->reserved = g->reserved_mib * MIB;
    memory->used = g->used_mib * MIB;
    memory->free = memory->total - memory->reserved - memory->used;
    return NVML_SUCCESS;
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *u) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (u == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (FAKE_IS_ERROR(g->util)) return FAKE_ERROR_CODE(g->util);
    if (FAKE_IS_ERROR(g->mem_util)) return FAKE_ERROR_CODE(g->mem_util);
    if (g->util < 0 || g->mem_util < 0) return NVML_ERROR_NOT_SUPPORTED;
    u->gpu = (unsigned int)g->util;
    u->memory = (unsigned int)g->mem_util;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *temp) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    return sensor != 0 ? NVML_ERROR_INVALID_ARGUMENT : metric(g->temp_c, temp);
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    return rc ? rc : metric(g->power_mw, power);
}

EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    return rc ? rc : metric(g->power_limit_mw, limit);
}
EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned int *limit) {
    return nvmlDeviceGetEnforcedPowerLimit(device, limit);
}

/* PCIe link: the generation and width it runs at now, and the widest this card and slot allow. */
#define PCIE_CALL(Name, field)                                                             \
    EXPORT nvmlReturn_t nvmlDevice##Name(nvmlDevice_t device, unsigned int *value) {       \
        fake_gpu *g;                                                                       \
        nvmlReturn_t rc = gpu_of(device, &g);                                              \
        return rc ? rc : metric(g->field, value);                                          \
    }
PCIE_CALL(GetCurrPcieLinkGeneration, pcie_gen)
PCIE_CALL(GetCurrPcieLinkWidth, pcie_width)
PCIE_CALL(GetMaxPcieLinkGeneration, pcie_max_gen)
PCIE_CALL(GetMaxPcieLinkWidth, pcie_max_width)

/* nvmlPcieUtilCounter_t: TX is what the GPU sends, RX what it receives. */
enum { NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1 };

/* The real driver counts bytes over a 20 ms window before it answers; pcie_sample_ms stands
 * in for that window, outside any shared state, so concurrent calls overlap as they do there. */
EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, int counter, unsigned int *value) {
    fake_gpu *g;
    long long kbs;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (counter == NVML_PCIE_UTIL_TX_BYTES) kbs = g->pcie_tx_kbs;
    else if (counter == NVML_PCIE_UTIL_RX_BYTES) kbs = g->pcie_rx_kbs;
    else return NVML_ERROR_INVALID_ARGUMENT;
    fake_sleep_ms(S.pcie_sample_ms);
    return metric(kbs, value);
}

/* Writes one process entry of the given stride: v1 (16), v2 (24) or the R535 32-byte entry. */
static char *put_process(char *entry, size_t stride, unsigned int pid, long long mib, int mig) {
    nvmlProcessDetail_v1_t full;
    memset(&full, 0, sizeof full);
    full.pid = pid;
    full.usedGpuMemory = mib < 0 ? NVML_VALUE_NOT_AVAILABLE_ULL : (unsigned long long)mib * MIB;
    /* Outside MIG both instance ids are 0xFFFFFFFF; a MIG device's GPU instance is its index here. */
    full.gpuInstanceId = mig < 0 ? 0xFFFFFFFFu : (unsigned int)mig;
    full.computeInstanceId = mig < 0 ? 0xFFFFFFFFu : 0;
    if (stride == sizeof(nvmlProcessInfo_v1_t)) {
        nvmlProcessInfo_v1_t v1 = { full.pid, full.usedGpuMemory };
        memcpy(entry, &v1, stride);
    } else {
        memcpy(entry, &full, stride);  /* v2 prefix (24) or the whole 32-byte entry */
    }
    return entry + stride;
}

/*
 * NVML list semantics (nvml.h, nvmlDeviceGetComputeRunningProcesses_v3): when *count is
 * smaller than the list, set *count to the needed size and return INSUFFICIENT_SIZE (so a
 * call with *count 0 and no buffer answers SUCCESS only when nothing runs); otherwise write
 * the entries and set *count. A MIG-enabled GPU's own handle refuses the aggregate list with
 * NO_PERMISSION, as it does to an unprivileged caller; its MIG devices' handles list their own
 * processes. With proc_growth, each compute-list call on a GPU sees that many more processes
 * than the one before (pids from 7000000, 1 MiB each): processes start between the calls.
 */
static nvmlReturn_t processes(nvmlDevice_t device, int graphics, size_t stride,
                              unsigned int *count, void *infos) {
    fake_gpu *g;
    unsigned int n = 0, extra = 0, i;
    int mig = mig_of(device);
    char *entry = infos;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (mig < 0 && g->mig_devices > 0) return NVML_ERROR_NO_PERMISSION;
    if (stride == 0) stride = (size_t)S.v3_stride;  /* _v3: 24, or 32 on some R535 drivers */
    if (!graphics && mig < 0 && S.proc_growth > 0)
        extra = (unsigned int)(S.proc_growth * compute_calls[g->index]++);
    for (i = 0; i < (unsigned int)S.nprocs; i++)
        if (S.procs[i].gpu == g->index && S.procs[i].graphics == graphics && S.procs[i].mig == mig) n++;
    n += extra;
    if (*count < n) { *count = n; return NVML_ERROR_INSUFFICIENT_SIZE; }
    if (n > 0 && infos == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *count = n;
    for (i = 0; i < (unsigned int)S.nprocs; i++) {
        const fake_proc *p = &S.procs[i];
        if (p->gpu == g->index && p->graphics == graphics && p->mig == mig)
            entry = put_process(entry, stride, p->pid, p->mib, mig);
    }
    for (i = 0; i < extra; i++) entry = put_process(entry, stride, 7000000u + i, 1, mig);
    return NVML_SUCCESS;
}

#define PROCESS_CALLS(Kind, graphics)                                                      \
    EXPORT nvmlReturn_t nvmlDeviceGet##Kind##RunningProcesses(nvmlDevice_t d,              \
            unsigned int *count, void *infos) {                                            \
        return processes(d, graphics, sizeof(nvmlProcessInfo_v1_t), count, infos);         \
    }                                                                                      \
    V2_CALL(Kind, graphics)                                                                \
    V3_CALL(Kind, graphics)

#ifdef FAKE_NO_PROCESS_V2
#define V2_CALL(Kind, graphics)
#else
#define V2_CALL(Kind, graphics)                                                            \
    EXPORT nvmlReturn_t nvmlDeviceGet##Kind##RunningProcesses_v2(nvmlDevice_t d,           \
            unsigned int *count, void *infos) {                                            \
        return processes(d, graphics, sizeof(nvmlProcessInfo_v2_t), count, infos);         \
    }
#endif

#ifdef FAKE_NO_PROCESS_V3
#define V3_CALL(Kind, graphics)
#else
#define V3_CALL(Kind, graphics)                                                            \
    EXPORT nvmlReturn_t nvmlDeviceGet##Kind##RunningProcesses_v3(nvmlDevice_t d,           \
            unsigned int *count, void *infos) {                                            \
        return processes(d, graphics, 0, count, infos);                                    \
    }
#endif

PROCESS_CALLS(Compute, 0)
PROCESS_CALLS(Graphics, 1)

/* MIG: a GPU with mig_devices has MIG mode enabled (current and pending) and that many MIG
 * devices at indices 0..n-1 of the FAKE_MAX_MIG (7) it could hold; other GPUs have it disabled. */
EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *current, unsigned int *pending) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (current == NULL || pending == NULL || mig_of(device) >= 0) return NVML_ERROR_INVALID_ARGUMENT;
    *current = *pending = g->mig_devices > 0 ? NVML_DEVICE_MIG_ENABLE : NVML_DEVICE_MIG_DISABLE;
    return NVML_SUCCESS;
}

/* Zero when MIG is disabled, as nvml.h says. */
EXPORT nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    *count = g->mig_devices > 0 ? FAKE_MAX_MIG : 0;
    return NVML_SUCCESS;
}

/* NOT_FOUND for an index where no MIG device exists. */
EXPORT nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                        nvmlDevice_t *mig) {
    fake_gpu *g;
    nvmlReturn_t rc = gpu_of(device, &g);
    if (rc) return rc;
    if (mig == NULL || mig_of(device) >= 0 || index >= FAKE_MAX_MIG) return NVML_ERROR_INVALID_ARGUMENT;
    if (g->mig_devices == 0) return NVML_ERROR_NOT_SUPPORTED;
    if (index >= (unsigned int)g->mig_devices) return NVML_ERROR_NOT_FOUND;
    *mig = (nvmlDevice_t)&mig_handles[g->index][index];
    return NVML_SUCCESS;
}
