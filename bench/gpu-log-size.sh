#!/usr/bin/env bash
# How big the GPU history grows (issue 11, item 1): a day of 3 nodes x 8 GPUs sampled every
# second, written through GpuLog.record (what `nvidb log` calls), then the file's size.
# Usage: bench/gpu-log-size.sh [HOURS] [NODES] [GPUS]     (the figure goes in docs/benchmarks.md)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test.cp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
java -cp "target/test-classes:target/classes:$(cat target/test.cp)" dev.nvidb.bench.BenchGpuLog "$work/gpu_log.db" \
  "${1:-24}" "${2:-3}" "${3:-8}"
