/*
 * A fake libcuda.so.1 for bench/gpu-check on a machine without a GPU: the few driver-API calls
 * its allocating job makes (cuInit, cuDeviceGet, cuCtxCreate_v2, cuMemAlloc_v2, cuMemFree_v2,
 * cuCtxDestroy_v2), answered from and written into the fake NVML's state file
 * ($NVIDB_FAKE_NVML_STATE), so that the fake NVML and the fake nvidia-smi then report the memory
 * the way a driver reports a CUDA process: a compute process on the GPU, holding what it
 * allocated plus its context, and the card's used memory grown by as much.
 *
 * A job does not inherit NVIDB_* variables from its submitter (the queue sets those), so the state
 * file may also be named by FAKE_CUDA_STATE.
 *
 * Devices are numbered as CUDA numbers them with CUDA_DEVICE_ORDER=PCI_BUS_ID: the visible GPUs
 * of CUDA_VISIBLE_DEVICES (indices or UUIDs), in that order; all of them when it is unset.
 * A context costs CONTEXT_MIB, as a real one costs a few hundred MiB. What a process still holds
 * when it exits is given back by a destructor (a killed process's stays, as a driver's would not:
 * the state file is not the driver).
 */
#define _DEFAULT_SOURCE  /* flock */
#pragma GCC diagnostic ignored "-Wunused-function"  /* fake_state.h serves the NVML fakes too */
#include "fake_state.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#define FAKE_EXPORT __attribute__((visibility("default")))
#define CONTEXT_MIB 256LL

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_UNKNOWN = 999
};

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct fake_context *CUcontext;

struct fake_context { int gpu; };

static int initialised;
static int visible[FAKE_MAX_GPUS];  /* CUDA ordinal -> NVML index */
static int nvisible;
static struct fake_context contexts[FAKE_MAX_GPUS];
static int context_gpu = -1;        /* the current context's GPU */
static long long held_mib[FAKE_MAX_GPUS];
#define MAX_ALLOCS 1024
static struct { CUdeviceptr ptr; int gpu; long long mib; } allocs[MAX_ALLOCS];
static CUdeviceptr next_ptr = 0x7f0000000000ULL;

/* The visible GPUs, in CUDA's order. */
static int enumerate(void) {
    static fake_state s;
    const char *list = getenv("CUDA_VISIBLE_DEVICES");
    int i;
    if (fake_load(&s) != FAKE_LOAD_OK) return CUDA_ERROR_UNKNOWN;
    fake_hang(&s);  /* a hung driver hangs cuInit too */
    nvisible = 0;
    if (list == NULL) {
        for (i = 0; i < s.ngpus && nvisible < FAKE_MAX_GPUS; i++) visible[nvisible++] = s.gpus[i].index;
        return CUDA_SUCCESS;
    }
    char copy[1024];
    fake_copy(copy, sizeof copy, list);
    for (char *item = strtok(copy, ","); item != NULL && nvisible < FAKE_MAX_GPUS; item = strtok(NULL, ",")) {
        int found = -1;
        for (i = 0; i < s.ngpus; i++) {
            char number[16];
            snprintf(number, sizeof number, "%d", s.gpus[i].index);
            if (strcmp(item, number) == 0 || strcmp(item, s.gpus[i].uuid) == 0) found = s.gpus[i].index;
        }
        if (found < 0) break;  /* as CUDA does, the list ends at the first device it cannot name */
        visible[nvisible++] = found;
    }
    return CUDA_SUCCESS;
}

/*
 * Rewrites the state file with this process's holding on GPU `gpu` changed by `delta` MiB: its
 * "proc compute PID MIB NAME" line (added, updated, or removed at zero) and the GPU's
 * "mem_used_mib". Serialised by a lock file beside the state; written to a temporary file and
 * renamed, as the fakes re-read it at every call.
 */
static int update_state(int gpu, long long delta) {
    const char *path = getenv(FAKE_STATE_ENV);
    char lock_path[4096], tmp_path[4096], line[1024], name[64] = "";
    int lock, in_gpu = 0, seen_used = 0, seen_proc = 0, status = CUDA_SUCCESS;
    long long now = held_mib[gpu] + delta;
    FILE *in, *out;
    if (path == NULL) return CUDA_ERROR_UNKNOWN;
    snprintf(lock_path, sizeof lock_path, "%s.cuda-lock", path);
    snprintf(tmp_path, sizeof tmp_path, "%s.cuda-%d", path, (int)getpid());
    FILE *comm = fopen("/proc/self/comm", "r");
    if (comm != NULL) {
        if (fgets(name, sizeof name, comm) != NULL) name[strcspn(name, "\n")] = '\0';
        fclose(comm);
    }
    if ((lock = open(lock_path, O_RDWR | O_CREAT, 0666)) < 0) return CUDA_ERROR_UNKNOWN;
    flock(lock, LOCK_EX);
    in = fopen(path, "r");
    out = fopen(tmp_path, "w");
    if (in == NULL || out == NULL) {
        status = CUDA_ERROR_UNKNOWN;
        goto done;
    }
    char mine[64];
    snprintf(mine, sizeof mine, "proc compute %d ", (int)getpid());
    while (fgets(line, sizeof line, in) != NULL) {
        int index;
        long long used;
        if (sscanf(line, "gpu %d", &index) == 1) {
            if (in_gpu && !seen_used && delta != 0) fprintf(out, "mem_used_mib %lld\n", delta > 0 ? delta : 0LL);
            if (in_gpu && !seen_proc && now > 0) fprintf(out, "proc compute %d %lld %s\n", (int)getpid(), now, name);
            in_gpu = index == gpu;
            seen_used = seen_proc = 0;
        } else if (in_gpu && sscanf(line, "mem_used_mib %lld", &used) == 1) {
            seen_used = 1;
            used += delta;
            fprintf(out, "mem_used_mib %lld\n", used > 0 ? used : 0LL);
            continue;
        } else if (in_gpu && strncmp(line, mine, strlen(mine)) == 0) {
            seen_proc = 1;
            if (now > 0) fprintf(out, "proc compute %d %lld %s\n", (int)getpid(), now, name);
            continue;
        }
        fputs(line, out);
    }
    if (in_gpu && !seen_used && delta != 0) fprintf(out, "mem_used_mib %lld\n", delta > 0 ? delta : 0LL);
    if (in_gpu && !seen_proc && now > 0) fprintf(out, "proc compute %d %lld %s\n", (int)getpid(), now, name);
done:
    if (in != NULL) fclose(in);
    if (out != NULL && fclose(out) != 0) status = CUDA_ERROR_UNKNOWN;
    if (status == CUDA_SUCCESS && rename(tmp_path, path) != 0) status = CUDA_ERROR_UNKNOWN;
    if (status != CUDA_SUCCESS) unlink(tmp_path);
    else held_mib[gpu] = now;
    flock(lock, LOCK_UN);
    close(lock);
    return status;
}

/* The card's free MiB now, from the state file. */
static long long free_mib(int gpu) {
    static fake_state s;
    if (fake_load(&s) != FAKE_LOAD_OK) return -1;
    fake_gpu *g = fake_find_gpu(&s, gpu);
    return g == NULL ? -1 : g->total_mib - g->used_mib - g->reserved_mib;
}

FAKE_EXPORT CUresult cuInit(unsigned int flags) {
    int status;
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (getenv(FAKE_STATE_ENV) == NULL && getenv("FAKE_CUDA_STATE") != NULL) {
        setenv(FAKE_STATE_ENV, getenv("FAKE_CUDA_STATE"), 1);
    }
    if ((status = enumerate()) != CUDA_SUCCESS) return status;
    initialised = 1;
    return nvisible == 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (count == NULL) return CUDA_ERROR_INVALID_VALUE;
    *count = nvisible;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (device == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal < 0 || ordinal >= nvisible) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxCreate_v2(CUcontext *context, unsigned int flags, CUdevice device) {
    (void)flags;
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (context == NULL) return CUDA_ERROR_INVALID_VALUE;
    if (device < 0 || device >= nvisible) return CUDA_ERROR_INVALID_DEVICE;
    int gpu = visible[device];
    if (free_mib(gpu) < CONTEXT_MIB) return CUDA_ERROR_OUT_OF_MEMORY;
    int status = update_state(gpu, CONTEXT_MIB);
    if (status != CUDA_SUCCESS) return status;
    contexts[device].gpu = gpu;
    context_gpu = gpu;
    *context = &contexts[device];
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
    int i;
    if (context_gpu < 0) return CUDA_ERROR_INVALID_CONTEXT;
    if (pointer == NULL || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    long long mib = (long long)((bytes + (1 << 20) - 1) >> 20);
    if (free_mib(context_gpu) < mib) return CUDA_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < MAX_ALLOCS && allocs[i].ptr != 0; i++) {
    }
    if (i == MAX_ALLOCS) return CUDA_ERROR_OUT_OF_MEMORY;
    int status = update_state(context_gpu, mib);
    if (status != CUDA_SUCCESS) return status;
    allocs[i].ptr = next_ptr;
    allocs[i].gpu = context_gpu;
    allocs[i].mib = mib;
    *pointer = next_ptr;
    next_ptr += (CUdeviceptr)mib << 20;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr pointer, unsigned char value, size_t count) {
    (void)value;
    (void)count;
    return context_gpu < 0 ? CUDA_ERROR_INVALID_CONTEXT : pointer == 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSynchronize(void) {
    return context_gpu < 0 ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr == pointer && pointer != 0) {
            int status = update_state(allocs[i].gpu, -allocs[i].mib);
            if (status == CUDA_SUCCESS) allocs[i].ptr = 0;
            return status;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuCtxDestroy_v2(CUcontext context) {
    if (context == NULL || context->gpu != context_gpu) return CUDA_ERROR_INVALID_CONTEXT;
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr != 0 && allocs[i].gpu == context->gpu) cuMemFree_v2(allocs[i].ptr);
    }
    int status = update_state(context->gpu, -CONTEXT_MIB);
    context_gpu = -1;
    return status;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
    if (text == NULL) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
        case CUDA_SUCCESS: *text = "no error"; break;
        case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
        case CUDA_ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected"; break;
        case CUDA_ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
        default: *text = "fake cuda error"; break;
    }
    return CUDA_SUCCESS;
}

/* What the process still holds when it exits normally. */
__attribute__((destructor)) static void give_back(void) {
    for (int gpu = 0; gpu < FAKE_MAX_GPUS; gpu++) {
        if (held_mib[gpu] > 0) update_state(gpu, -held_mib[gpu]);
    }
}
