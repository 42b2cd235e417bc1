/*
 * The parts of nvml.h the fake libnvidia-ml.so.1 implements, written from the public header
 * (NVIDIA/go-nvml gen/nvml/nvml.h, NVML 12.2.140, and the cuda-nvml-dev 12.2.81 header for the
 * R535 process entry). Shared by fake_nvml.c and nvml_layout.c, which prints these layouts so
 * that NvmlLayoutTest can hold them, and the agent's ctypes copies, against the header's.
 */
#ifndef FAKE_NVML_TYPES_H
#define FAKE_NVML_TYPES_H

typedef int nvmlReturn_t;
typedef struct fake_device *nvmlDevice_t;

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
    NVML_ERROR_UNKNOWN = 999
};

#define NVML_STRUCT_VERSION(data, ver) \
    ((unsigned int)(sizeof(nvml##data##_v##ver##_t) | ((ver) << 24U)))

typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
    unsigned int version;  /* must be nvmlMemory_v2 */
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;
#define nvmlMemory_v2 NVML_STRUCT_VERSION(Memory, 2)

typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;

#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
typedef struct {
    char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;

/* Process entries: v1 for the unversioned calls, v2 for _v2 and (12.2.140) _v3. */
typedef struct { unsigned int pid; unsigned long long usedGpuMemory; } nvmlProcessInfo_v1_t;
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;  /* NVML_VALUE_NOT_AVAILABLE when the driver cannot say */
    unsigned int gpuInstanceId, computeInstanceId;  /* 0xFFFFFFFF outside MIG */
} nvmlProcessInfo_v2_t;
/* nvmlProcessInfo_t of the 12.2.81 header, which some R535 drivers write from their _v3 calls;
 * 12.2.140 moved this layout to nvmlProcessDetail_v1_t and made _v3 take v2 entries again. */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
    unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessDetail_v1_t;

#define NVML_VALUE_NOT_AVAILABLE_ULL (~0ULL)  /* NVML_VALUE_NOT_AVAILABLE (-1) in an unsigned long long */
#define NVML_DEVICE_MIG_DISABLE 0x0
#define NVML_DEVICE_MIG_ENABLE 0x1

_Static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t");
_Static_assert(sizeof(nvmlMemory_v2_t) == 40, "nvmlMemory_v2_t");
_Static_assert(sizeof(nvmlUtilization_t) == 8, "nvmlUtilization_t");
_Static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t");
_Static_assert(sizeof(nvmlProcessInfo_v1_t) == 16, "nvmlProcessInfo_v1_t");
_Static_assert(sizeof(nvmlProcessInfo_v2_t) == 24, "nvmlProcessInfo_v2_t");
_Static_assert(sizeof(nvmlProcessDetail_v1_t) == 32, "nvmlProcessDetail_v1_t");

#endif
