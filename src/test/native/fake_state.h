/*
 * The fake GPU state shared by the fake libnvidia-ml.so.1 and the fake nvidia-smi.
 * The state file format is documented in README.md next to this file; both programs
 * re-read it on every call so that tests can edit it between probes.
 */
#ifndef FAKE_STATE_H
#define FAKE_STATE_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_STATE_ENV "NVIDB_FAKE_NVML_STATE"
#define FAKE_MAX_GPUS 16
#define FAKE_MAX_PROCS 4096
#define FAKE_MAX_MIG 7           /* MIG devices under one GPU (nvmlDeviceGetMaxMigDeviceCount) */
#define FAKE_ABSENT (-1LL)       /* metric not in the state: NOT_SUPPORTED, smi prints [N/A] */
#define FAKE_UNSUPPORTED (-2LL)  /* metric "unsupported": NOT_SUPPORTED, smi prints [Not Supported] */
#define FAKE_MEM_NA (-1LL)       /* process memory "n/a": NVML_VALUE_NOT_AVAILABLE */
/* A metric "error CODE": the call for that metric alone answers NVML error CODE. */
#define FAKE_ERROR(code) (-1000LL - (long long)(code))
#define FAKE_IS_ERROR(value) ((value) <= -1000LL)
#define FAKE_ERROR_CODE(value) ((int)(-1000LL - (value)))

typedef struct {
    int gpu;              /* index of the GPU the process runs on */
    int graphics;         /* 0 = compute list, 1 = graphics list */
    unsigned int pid;
    long long mib;        /* FAKE_MEM_NA for a blind process */
    int mig;              /* the MIG device it runs on, -1 outside MIG */
    char name[128];       /* "" = unknown to the driver */
} fake_proc;

typedef struct {
    int index;
    char uuid[80];
    char name[96];
    char pci[32];
    long long total_mib, used_mib, reserved_mib;
    long long util, mem_util, temp_c, power_mw, power_limit_mw;
    long long pcie_gen, pcie_width, pcie_max_gen, pcie_max_width;  /* link: current, widest */
    long long pcie_rx_kbs, pcie_tx_kbs;                             /* throughput, KB/s */
    int error;            /* NVML error code returned by every query on this GPU, 0 = healthy */
    int mig_devices;      /* MIG devices 0..n-1; 0 = MIG mode disabled */
} fake_gpu;

typedef struct {
    int init_error;
    char driver[80];
    char nvml[80];
    int cuda;
    int v3_stride;
    int memory_v2_mismatch;  /* nvmlDeviceGetMemoryInfo_v2 refuses every version word */
    int proc_growth;         /* each compute-list call on a GPU sees this many more processes */
    long hang_ms;
    long pcie_sample_ms;  /* each PCIe throughput call blocks this long (the driver samples 20 ms) */
    int smi_fail;
    char smi_message[512];
    int ngpus;
    fake_gpu gpus[FAKE_MAX_GPUS];
    int nprocs;
    fake_proc procs[FAKE_MAX_PROCS];
} fake_state;

enum { FAKE_LOAD_OK = 0, FAKE_LOAD_MISSING = -1, FAKE_LOAD_INVALID = -2 };

static void fake_copy(char *dst, size_t size, const char *src) {
    snprintf(dst, size, "%s", src);
}

/* A metric value: a number, "unsupported", or "error CODE" (an NVML error code > 0). */
static int fake_metric(const char *value, long long *out) {
    char *end;
    if (strcmp(value, "unsupported") == 0) { *out = FAKE_UNSUPPORTED; return 0; }
    if (strncmp(value, "error ", 6) == 0) {
        long long code = strtoll(value + 6, &end, 10);
        if (end == value + 6 || *end != '\0' || code <= 0 || code > 100000) return -1;
        *out = FAKE_ERROR(code);
        return 0;
    }
    *out = strtoll(value, &end, 10);
    return (end == value || *end != '\0' || *out < 0) ? -1 : 0;
}

static int fake_gpu_key(fake_gpu *g, const char *key, const char *value) {
    long long *metric = NULL;
    if (strcmp(key, "uuid") == 0) { fake_copy(g->uuid, sizeof g->uuid, value); return 0; }
    if (strcmp(key, "name") == 0) { fake_copy(g->name, sizeof g->name, value); return 0; }
    if (strcmp(key, "pci") == 0) { fake_copy(g->pci, sizeof g->pci, value); return 0; }
    if (strcmp(key, "error") == 0) { g->error = atoi(value); return 0; }
    if (strcmp(key, "mig_devices") == 0) {
        g->mig_devices = atoi(value);
        return (g->mig_devices >= 1 && g->mig_devices <= FAKE_MAX_MIG) ? 0 : -1;
    }
    if (strcmp(key, "mem_total_mib") == 0) metric = &g->total_mib;
    else if (strcmp(key, "mem_used_mib") == 0) metric = &g->used_mib;
    else if (strcmp(key, "mem_reserved_mib") == 0) metric = &g->reserved_mib;
    else if (strcmp(key, "util") == 0) metric = &g->util;
    else if (strcmp(key, "mem_util") == 0) metric = &g->mem_util;
    else if (strcmp(key, "temp_c") == 0) metric = &g->temp_c;
    else if (strcmp(key, "power_mw") == 0) metric = &g->power_mw;
    else if (strcmp(key, "power_limit_mw") == 0) metric = &g->power_limit_mw;
    else if (strcmp(key, "pcie_link_gen") == 0) metric = &g->pcie_gen;
    else if (strcmp(key, "pcie_link_width") == 0) metric = &g->pcie_width;
    else if (strcmp(key, "pcie_max_link_gen") == 0) metric = &g->pcie_max_gen;
    else if (strcmp(key, "pcie_max_link_width") == 0) metric = &g->pcie_max_width;
    else if (strcmp(key, "pcie_rx_kbs") == 0) metric = &g->pcie_rx_kbs;
    else if (strcmp(key, "pcie_tx_kbs") == 0) metric = &g->pcie_tx_kbs;
    if (metric == NULL) return -1;
    return fake_metric(value, metric);
}

/* "proc compute|graphics PID MIB|n/a [NAME...]", on MIG device mig (-1: none) */
static int fake_proc_line(fake_state *s, int gpu, int mig, const char *value) {
    char kind[16], mem[32];
    int used = 0;
    fake_proc *p;
    if (s->nprocs >= FAKE_MAX_PROCS) return -1;
    p = &s->procs[s->nprocs];
    memset(p, 0, sizeof *p);
    if (sscanf(value, "%15s %u %31s %n", kind, &p->pid, mem, &used) < 3) return -1;
    if (strcmp(kind, "compute") == 0) p->graphics = 0;
    else if (strcmp(kind, "graphics") == 0) p->graphics = 1;
    else return -1;
    if (strcmp(mem, "n/a") == 0) p->mib = FAKE_MEM_NA;
    else if (fake_metric(mem, &p->mib) != 0 || p->mib < 0) return -1;
    if (used > 0) fake_copy(p->name, sizeof p->name, value + used);
    p->gpu = gpu;
    p->mig = mig;
    s->nprocs++;
    return 0;
}

static int fake_line(fake_state *s, char *key, const char *value) {
    fake_gpu *g = s->ngpus > 0 ? &s->gpus[s->ngpus - 1] : NULL;
    if (strcmp(key, "init_error") == 0) { s->init_error = atoi(value); return 0; }
    if (strcmp(key, "driver") == 0) { fake_copy(s->driver, sizeof s->driver, value); return 0; }
    if (strcmp(key, "nvml") == 0) { fake_copy(s->nvml, sizeof s->nvml, value); return 0; }
    if (strcmp(key, "cuda") == 0) { s->cuda = atoi(value); return 0; }
    if (strcmp(key, "v3_stride") == 0) {
        s->v3_stride = atoi(value);
        return (s->v3_stride == 24 || s->v3_stride == 32) ? 0 : -1;
    }
    if (strcmp(key, "memory_v2_mismatch") == 0) {
        s->memory_v2_mismatch = strcmp(value, "yes") == 0;
        return s->memory_v2_mismatch ? 0 : -1;
    }
    if (strcmp(key, "proc_growth") == 0) {
        s->proc_growth = atoi(value);
        return (s->proc_growth >= 1 && s->proc_growth <= 1000) ? 0 : -1;
    }
    if (strcmp(key, "hang_ms") == 0) { s->hang_ms = atol(value); return 0; }
    if (strcmp(key, "pcie_sample_ms") == 0) { s->pcie_sample_ms = atol(value); return 0; }
    if (strcmp(key, "smi") == 0) {
        if (strcmp(value, "ok") == 0) { s->smi_fail = 0; return 0; }
        if (strncmp(value, "fail", 4) != 0) return -1;
        s->smi_fail = 1;
        value += 4;
        while (*value == ' ') value++;
        fake_copy(s->smi_message, sizeof s->smi_message, value);
        return 0;
    }
    if (strcmp(key, "gpu") == 0) {
        if (s->ngpus >= FAKE_MAX_GPUS) return -1;
        g = &s->gpus[s->ngpus++];
        memset(g, 0, sizeof *g);
        g->index = atoi(value);
        snprintf(g->uuid, sizeof g->uuid, "GPU-00000000-0000-0000-0000-%012d", g->index);
        snprintf(g->pci, sizeof g->pci, "00000000:%02X:00.0", g->index + 1);
        fake_copy(g->name, sizeof g->name, "Fake GPU");
        g->util = g->mem_util = g->temp_c = g->power_mw = g->power_limit_mw = FAKE_ABSENT;
        g->pcie_gen = g->pcie_width = g->pcie_max_gen = g->pcie_max_width = FAKE_ABSENT;
        g->pcie_rx_kbs = g->pcie_tx_kbs = FAKE_ABSENT;
        return 0;
    }
    if (g == NULL) return -1;  /* GPU keys before the first "gpu" line */
    if (strcmp(key, "proc") == 0) return fake_proc_line(s, g->index, -1, value);
    if (strcmp(key, "migproc") == 0) {  /* "migproc DEVICE KIND PID MEM [NAME]" */
        int mig = atoi(value);
        size_t gap = strcspn(value, " ");
        if (mig < 0 || mig >= g->mig_devices || value[gap] != ' ') return -1;  /* mig_devices first */
        return fake_proc_line(s, g->index, mig, value + gap + 1);
    }
    return fake_gpu_key(g, key, value);
}

/* Reads the state named by $NVIDB_FAKE_NVML_STATE; complains on stderr (never stdout). */
static int fake_load(fake_state *s) {
    const char *path = getenv(FAKE_STATE_ENV);
    char line[1024];
    int lineno = 0;
    FILE *f;
    memset(s, 0, offsetof(fake_state, procs));
    s->nprocs = 0;
    fake_copy(s->driver, sizeof s->driver, "550.54.14");
    fake_copy(s->nvml, sizeof s->nvml, "12.550.54.14");
    s->cuda = 12040;
    s->v3_stride = 24;
    if (path == NULL || (f = fopen(path, "r")) == NULL) return FAKE_LOAD_MISSING;
    while (fgets(line, sizeof line, f) != NULL) {
        char *key = line, *value, *end = line + strlen(line);
        lineno++;
        while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) *--end = '\0';
        while (*key == ' ') key++;
        if (*key == '\0' || *key == '#') continue;
        value = key + strcspn(key, " ");
        if (*value != '\0') *value++ = '\0';
        while (*value == ' ') value++;
        if (fake_line(s, key, value) != 0) {
            fprintf(stderr, "fake nvml: %s:%d: bad line starting with '%s'\n", path, lineno, key);
            fclose(f);
            return FAKE_LOAD_INVALID;
        }
    }
    fclose(f);
    return FAKE_LOAD_OK;
}

static fake_gpu *fake_find_gpu(fake_state *s, int index) {
    int i;
    for (i = 0; i < s->ngpus; i++)
        if (s->gpus[i].index == index) return &s->gpus[i];
    return NULL;
}

static void fake_sleep_ms(long ms) {
    struct timespec t;
    if (ms <= 0) return;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* nvmlErrorString's text for the codes the fakes answer; nvidia-smi prints it in brackets. */
static const char *fake_error_string(int rc) {
    switch (rc) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 10: return "Timeout";
    case 12: return "NVML Shared Library Not Found";
    case 15: return "GPU is lost";
    case 16: return "GPU requires restart";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    case 25: return "Argument version mismatch";
    default: return "Unknown Error";
    }
}

/* A hung driver: every call blocks this long before answering. */
static void fake_hang(const fake_state *s) {
    fake_sleep_ms(s->hang_ms);
}

#endif
