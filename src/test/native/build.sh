#!/usr/bin/env bash
# Builds the fake NVML library and fake nvidia-smi into the directory given as $1.
set -euo pipefail
out=${1:?usage: build.sh OUT_DIR}
mkdir -p "$out"
