/*
 * Prints the layout of the fake NVML's structs, one "NAME SIZE" line per struct and one
 * "NAME.FIELD OFFSET" line per field, and the nvmlMemory_v2 version word, for
 * dev.nvidb.agent.NvmlLayoutTest to compare with nvml.h and with the agent's ctypes structures.
 */
#include <stddef.h>
#include <stdio.h>
#include "fake_nvml_types.h"

#define SIZE(type, name) printf("%s %zu\n", name, sizeof(type))
#define FIELD(type, name, field) printf("%s.%s %zu\n", name, #field, offsetof(type, field))

int main(void) {
    SIZE(nvmlMemory_t, "Memory");
    FIELD(nvmlMemory_t, "Memory", total);
    FIELD(nvmlMemory_t, "Memory", free);
    FIELD(nvmlMemory_t, "Memory", used);
    SIZE(nvmlMemory_v2_t, "MemoryV2");
    FIELD(nvmlMemory_v2_t, "MemoryV2", version);
    FIELD(nvmlMemory_v2_t, "MemoryV2", total);
    FIELD(nvmlMemory_v2_t, "MemoryV2", reserved);
    FIELD(nvmlMemory_v2_t, "MemoryV2", free);
    FIELD(nvmlMemory_v2_t, "MemoryV2", used);
    SIZE(nvmlUtilization_t, "Utilization");
    FIELD(nvmlUtilization_t, "Utilization", gpu);
    FIELD(nvmlUtilization_t, "Utilization", memory);
    SIZE(nvmlPciInfo_t, "PciInfo");
    FIELD(nvmlPciInfo_t, "PciInfo", busIdLegacy);
    FIELD(nvmlPciInfo_t, "PciInfo", domain);
    FIELD(nvmlPciInfo_t, "PciInfo", bus);
    FIELD(nvmlPciInfo_t, "PciInfo", device);
    FIELD(nvmlPciInfo_t, "PciInfo", pciDeviceId);
    FIELD(nvmlPciInfo_t, "PciInfo", pciSubSystemId);
    FIELD(nvmlPciInfo_t, "PciInfo", busId);
    SIZE(nvmlProcessInfo_v1_t, "ProcessInfoV1");
    FIELD(nvmlProcessInfo_v1_t, "ProcessInfoV1", pid);
    FIELD(nvmlProcessInfo_v1_t, "ProcessInfoV1", usedGpuMemory);
    SIZE(nvmlProcessInfo_v2_t, "ProcessInfoV2");
    FIELD(nvmlProcessInfo_v2_t, "ProcessInfoV2", pid);
    FIELD(nvmlProcessInfo_v2_t, "ProcessInfoV2", usedGpuMemory);
    FIELD(nvmlProcessInfo_v2_t, "ProcessInfoV2", gpuInstanceId);
    FIELD(nvmlProcessInfo_v2_t, "ProcessInfoV2", computeInstanceId);
    SIZE(nvmlProcessDetail_v1_t, "ProcessDetailV1");
    FIELD(nvmlProcessDetail_v1_t, "ProcessDetailV1", pid);
    FIELD(nvmlProcessDetail_v1_t, "ProcessDetailV1", usedGpuMemory);
    FIELD(nvmlProcessDetail_v1_t, "ProcessDetailV1", gpuInstanceId);
    FIELD(nvmlProcessDetail_v1_t, "ProcessDetailV1", computeInstanceId);
    FIELD(nvmlProcessDetail_v1_t, "ProcessDetailV1", usedGpuCcProtectedMemory);
    printf("nvmlMemory_v2 %u\n", nvmlMemory_v2);
    return 0;
}
