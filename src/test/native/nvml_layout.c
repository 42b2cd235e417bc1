/*
 * Prints the layout of the fake NVML's structs, one "NAME SIZE" line per struct and one
 * "NAME.FIELD OFFSET" line per field, and the nvmlMemory_v2 version word, for
 * dev.nvidb.agent.NvmlLayoutTest to compare with nvml.h and with the agent's ctypes structures.
 */
#include <stddef.h>
#include <stdio.h>
#include "fake_nvml_types.h"

/* Each struct's fields as a list F(type, name, field) …, in the header's order. */
#define MEMORY_FIELDS(t, n, F) F(t, n, total) F(t, n, free) F(t, n, used)
#define MEMORY_V2_FIELDS(t, n, F) F(t, n, version) F(t, n, total) F(t, n, reserved) F(t, n, free) F(t, n, used)
#define UTILIZATION_FIELDS(t, n, F) F(t, n, gpu) F(t, n, memory)
#define PCI_FIELDS(t, n, F) F(t, n, busIdLegacy) F(t, n, domain) F(t, n, bus) F(t, n, device) \
    F(t, n, pciDeviceId) F(t, n, pciSubSystemId) F(t, n, busId)
#define PROCESS_V1_FIELDS(t, n, F) F(t, n, pid) F(t, n, usedGpuMemory)
#define PROCESS_V2_FIELDS(t, n, F) PROCESS_V1_FIELDS(t, n, F) F(t, n, gpuInstanceId) F(t, n, computeInstanceId)
#define PROCESS_DETAIL_FIELDS(t, n, F) PROCESS_V2_FIELDS(t, n, F) F(t, n, usedGpuCcProtectedMemory)

#define PRINT_FIELD(type, name, field) printf("%s.%s %zu\n", name, #field, offsetof(type, field));
#define LAYOUT(type, name, FIELDS) \
    do { printf("%s %zu\n", name, sizeof(type)); FIELDS(type, name, PRINT_FIELD) } while (0)

int main(void) {
    LAYOUT(nvmlMemory_t, "Memory", MEMORY_FIELDS);
    LAYOUT(nvmlMemory_v2_t, "MemoryV2", MEMORY_V2_FIELDS);
    LAYOUT(nvmlUtilization_t, "Utilization", UTILIZATION_FIELDS);
    LAYOUT(nvmlPciInfo_t, "PciInfo", PCI_FIELDS);
    LAYOUT(nvmlProcessInfo_v1_t, "ProcessInfoV1", PROCESS_V1_FIELDS);
    LAYOUT(nvmlProcessInfo_v2_t, "ProcessInfoV2", PROCESS_V2_FIELDS);
    LAYOUT(nvmlProcessDetail_v1_t, "ProcessDetailV1", PROCESS_DETAIL_FIELDS);
    printf("nvmlMemory_v2 %u\n", nvmlMemory_v2);
    return 0;
}
