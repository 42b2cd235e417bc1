#!/usr/bin/env bash
# Builds the fake NVML library and fake nvidia-smi into the directory given as $1:
#   lib/libnvidia-ml.so.1          a current driver (all symbols)
#   lib-old/libnvidia-ml.so.1      no nvmlDeviceGetMemoryInfo_v2, no *RunningProcesses_v3
#   lib-ancient/libnvidia-ml.so.1  also no *RunningProcesses_v2 (16-byte v1 entries only)
#   bin/nvidia-smi
#   cuda/libcuda.so.1              the driver-API calls bench/gpu-check's allocating job makes
#   layout/nvml-layout             prints the fake's struct layouts (NvmlLayoutTest)
# Outputs newer than every source are left alone, so repeated builds cost nothing.
set -euo pipefail
out=${1:?usage: build.sh OUT_DIR}
src=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror)

# up_to_date TARGET SOURCES...: true when TARGET exists and is newer than each source.
up_to_date() {
    local target=$1 source
    shift
    [[ -e $target ]] || return 1
    for source in "$@"; do [[ $target -nt $source ]] || return 1; done
}

build_lib() {
    local dir=$out/$1
    shift
    up_to_date "$dir/libnvidia-ml.so.1" "$src/fake_nvml.c" "$src/fake_state.h" "$src/fake_nvml_types.h" "$0" \
        && return 0
    mkdir -p "$dir"
    "$cc" "${cflags[@]}" "$@" -shared -fPIC -fvisibility=hidden \
        -Wl,-soname,libnvidia-ml.so.1 -o "$dir/libnvidia-ml.so.1.tmp" "$src/fake_nvml.c"
    mv -f "$dir/libnvidia-ml.so.1.tmp" "$dir/libnvidia-ml.so.1"
}

build_smi() {
    up_to_date "$out/bin/nvidia-smi" "$src/fake_nvidia_smi.c" "$src/fake_state.h" "$0" && return 0
    mkdir -p "$out/bin"
    "$cc" "${cflags[@]}" -o "$out/bin/nvidia-smi.tmp" "$src/fake_nvidia_smi.c"
    mv -f "$out/bin/nvidia-smi.tmp" "$out/bin/nvidia-smi"
}

build_cuda() {
    up_to_date "$out/cuda/libcuda.so.1" "$src/fake_cuda.c" "$src/fake_state.h" "$0" && return 0
    mkdir -p "$out/cuda"
    "$cc" "${cflags[@]}" -shared -fPIC -fvisibility=hidden \
        -Wl,-soname,libcuda.so.1 -o "$out/cuda/libcuda.so.1.tmp" "$src/fake_cuda.c"
    mv -f "$out/cuda/libcuda.so.1.tmp" "$out/cuda/libcuda.so.1"
}

build_layout() {
    up_to_date "$out/layout/nvml-layout" "$src/nvml_layout.c" "$src/fake_nvml_types.h" "$0" && return 0
    mkdir -p "$out/layout"
    "$cc" "${cflags[@]}" -o "$out/layout/nvml-layout.tmp" "$src/nvml_layout.c"
    mv -f "$out/layout/nvml-layout.tmp" "$out/layout/nvml-layout"
}

mkdir -p "$out"
build_cuda &
build_lib lib &
build_lib lib-old -DFAKE_NO_MEMORY_V2 -DFAKE_NO_PROCESS_V3 &
build_lib lib-ancient -DFAKE_NO_MEMORY_V2 -DFAKE_NO_PROCESS_V3 -DFAKE_NO_PROCESS_V2 &
build_smi &
build_layout &
status=0
for job in $(jobs -p); do wait "$job" || status=1; done
exit $status
