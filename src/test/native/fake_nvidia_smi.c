/*
 * A fake nvidia-smi for tests, answering from the same state file as the fake NVML
 * library. It knows the CSV queries the agent and the no-python3 fallback use, prints
 * them the way the real tool does ("81559, 1024", "[N/A]", "[Not Supported]"), and -L.
 * It is C rather than a script so that it also works on a node without python3.
 */
#include "fake_state.h"

static fake_state S;
static int header = 1, units = 1;

/* A metric with its unit; absent and unsupported values print as the real tool does, and a
 * failing call as the error's text in brackets ("[Insufficient Permissions]", "[Unknown Error]"). */
static void put_metric(long long value, const char *unit, double scale, int decimals) {
    if (value == FAKE_UNSUPPORTED) { fputs("[Not Supported]", stdout); return; }
    if (FAKE_IS_ERROR(value)) { printf("[%s]", fake_error_string(FAKE_ERROR_CODE(value))); return; }
    if (value < 0) { fputs("[N/A]", stdout); return; }
    printf("%.*f", decimals, (double)value / scale);
    if (units) printf(" %s", unit);
}

static int gpu_field(const fake_gpu *g, const char *f) {
    long long free_mib = g->total_mib - g->used_mib - g->reserved_mib;
    if (strcmp(f, "index") == 0) printf("%d", g->index);
    else if (strcmp(f, "uuid") == 0 || strcmp(f, "gpu_uuid") == 0) fputs(g->uuid, stdout);
    else if (strcmp(f, "pci.bus_id") == 0) fputs(g->pci, stdout);
    else if (strcmp(f, "name") == 0 || strcmp(f, "gpu_name") == 0) fputs(g->name, stdout);
    else if (strcmp(f, "memory.total") == 0) put_metric(g->total_mib, "MiB", 1, 0);
    else if (strcmp(f, "memory.used") == 0) put_metric(g->used_mib, "MiB", 1, 0);
    else if (strcmp(f, "memory.free") == 0) put_metric(free_mib, "MiB", 1, 0);
    else if (strcmp(f, "memory.reserved") == 0) put_metric(g->reserved_mib, "MiB", 1, 0);
    else if (strcmp(f, "utilization.gpu") == 0) put_metric(g->util, "%", 1, 0);
    else if (strcmp(f, "utilization.memory") == 0) put_metric(g->mem_util, "%", 1, 0);
    else if (strcmp(f, "temperature.gpu") == 0) {
        int saved = units;
        units = 0;  /* the real tool prints temperatures without a unit */
        put_metric(g->temp_c, "", 1, 0);
        units = saved;
    } else if (strcmp(f, "power.draw") == 0) put_metric(g->power_mw, "W", 1000, 2);
    else if (strcmp(f, "power.limit") == 0) put_metric(g->power_limit_mw, "W", 1000, 2);
    else if (strcmp(f, "driver_version") == 0) fputs(S.driver, stdout);
    else return -1;
    return 0;
}

static const char *header_unit(const char *f) {
    if (strncmp(f, "memory.", 7) == 0 || strcmp(f, "used_memory") == 0) return " [MiB]";
    if (strncmp(f, "utilization.", 12) == 0) return " [%]";
    if (strncmp(f, "power.", 6) == 0) return " [W]";
    return "";
}

/* argv[0] of /proc/PID/cmdline, as the real tool shows it, else [N/A]. */
static void process_name(const fake_proc *p) {
    char path[64], buf[256];
    size_t n = 0;
    FILE *f;
    if (p->name[0] != '\0') { fputs(p->name, stdout); return; }
    snprintf(path, sizeof path, "/proc/%u/cmdline", p->pid);
    if ((f = fopen(path, "r")) != NULL) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    fputs(n > 0 ? buf : "[N/A]", stdout);
}

static int app_field(const fake_proc *p, const char *f) {
    const fake_gpu *g = fake_find_gpu(&S, p->gpu);
    if (strcmp(f, "pid") == 0) printf("%u", p->pid);
    else if (strcmp(f, "process_name") == 0) process_name(p);
    else if (strcmp(f, "used_memory") == 0) put_metric(p->mib, "MiB", 1, 0);
    else if (strncmp(f, "gpu_", 4) == 0 || strcmp(f, "pci.bus_id") == 0) return gpu_field(g, f);
    else return -1;
    return 0;
}

/* Prints one CSV row per GPU (gpus) or per compute process (apps) for a field list. */
static int query(char *fields, int apps) {
    char *list[64];
    int n = 0, i, row;
    char *f = strtok(fields, ",");
    for (; f != NULL && n < 64; f = strtok(NULL, ",")) list[n++] = f;
    if (header) {
        for (i = 0; i < n; i++) printf("%s%s%s", i ? ", " : "", list[i], header_unit(list[i]));
        putchar('\n');
    }
    for (row = 0; row < (apps ? S.nprocs : S.ngpus); row++) {
        const fake_gpu *g = apps ? fake_find_gpu(&S, S.procs[row].gpu) : &S.gpus[row];
        if (apps && (S.procs[row].graphics || g == NULL || g->error)) continue;
        if (!apps && g->error) {
            printf("Unable to determine the device handle for GPU%s: %s\n", g->pci,
                   g->error == 15 ? "GPU is lost. Reboot the system to recover this GPU"
                                  : "Unknown Error");
            continue;
        }
        for (i = 0; i < n; i++) {
            if (i) fputs(", ", stdout);
            if ((apps ? app_field(&S.procs[row], list[i]) : gpu_field(g, list[i])) != 0) {
                fflush(stdout);
                fprintf(stderr, "Field \"%s\" is not a valid field to query.\n", list[i]);
                return 2;
            }
        }
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv) {
    char *gpu_query = NULL, *app_query = NULL;
    int i, list = 0, rc = fake_load(&S);
    if (rc == FAKE_LOAD_INVALID) return 2;
    if (rc == FAKE_LOAD_MISSING) {
        puts("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
             "Make sure that the latest NVIDIA driver is installed and running.\n");
        return 9;
    }
    fake_hang(&S);
    if (S.smi_fail) {
        puts(S.smi_message);
        return 9;
    }
    for (i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--query-gpu=", 12) == 0) gpu_query = argv[i] + 12;
        else if (strncmp(argv[i], "--query-compute-apps=", 21) == 0) app_query = argv[i] + 21;
        else if (strncmp(argv[i], "--format=", 9) == 0) {
            header = strstr(argv[i], "noheader") == NULL;
            units = strstr(argv[i], "nounits") == NULL;
        } else if (strcmp(argv[i], "-L") == 0 || strcmp(argv[i], "--list-gpus") == 0) list = 1;
        else {
            fprintf(stderr, "fake nvidia-smi: unsupported argument %s\n", argv[i]);
            return 2;
        }
    }
    if (gpu_query != NULL) return query(gpu_query, 0);
    if (app_query != NULL) return query(app_query, 1);
    for (i = 0; list && i < S.ngpus; i++)
        printf("GPU %d: %s (UUID: %s)\n", S.gpus[i].index, S.gpus[i].name, S.gpus[i].uuid);
    if (!list) fprintf(stderr, "fake nvidia-smi: only --query-gpu, --query-compute-apps and -L\n");
    return list ? 0 : 2;
}
