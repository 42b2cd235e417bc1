#!/usr/bin/env bash
# Cold-process start-up and probe benchmark for the monitor (issue 2).
# Medians of RUNS runs (default 15) of:
#   nvidb --version
#   nvidb --once --remote --json   over 1 and over 3 harness SSH nodes (MINA, fake GPUs)
#   the same over 3 nodes plus one hung node (connect timeout 2 s)
# Usage: bench/startup.sh [RUNS]     (figures go in docs/benchmarks.md)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

./mvnw -q -Dnvidb.build.dir=target -DskipTests package >/dev/null
export NVIDB_NO_BUILD=1   # measure start-up, not the staleness check rebuilding after edits
./mvnw -q -Dnvidb.build.dir=target test-compile dependency:build-classpath -Dmdep.outputFile=target/test.cp >/dev/null
bin/nvidb --version >/dev/null   # builds the CDS archive once
cp="target/test-classes:target/classes:$(cat target/test.cp)"

start_hosts() { # DIR COUNT [hung]
  mkfifo "$1.in"
  java -Dnvidb.fake.nvml.dir="$PWD/target/fake-nvml" -cp "$cp" dev.nvidb.bench.BenchHosts "$@" \
    <"$1.in" >"$1.log" 2>&1 &
  exec {fd}>"$1.in"
  eval "fd_$(basename "$1")=$fd"
  for _ in $(seq 100); do grep -q ready "$1.log" 2>/dev/null && return 0; sleep 0.1; done
  echo "hosts did not start: $(cat "$1.log")" >&2; exit 1
}

median() { # command... ; prints median wall ms over $runs runs
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

start_hosts "$work/one" 1
start_hosts "$work/three" 3
start_hosts "$work/hung" 3 hung

v=$(median bin/nvidb --version)
one=$(HOME=$work/one/home NVIDB_HOME=$work/one/home/.nvidb median bin/nvidb --once --remote --json)
three=$(HOME=$work/three/home NVIDB_HOME=$work/three/home/.nvidb median bin/nvidb --once --remote --json)
hung=$(HOME=$work/hung/home NVIDB_HOME=$work/hung/home/.nvidb median bin/nvidb --once --remote --json)
plain=$(median java -jar target/nvidb.jar --version)

echo "runs per figure: $runs (median, ms)"
echo "nvidb --version (launcher, CDS)            $v"
echo "java -jar nvidb.jar --version (no tuning)  $plain"
echo "--once --remote --json, 1 node             $one"
echo "--once --remote --json, 3 nodes            $three"
echo "ratio 3 nodes / 1 node                     $(awk -v a="$three" -v b="$one" 'BEGIN {printf "%.2f", a/b}')"
echo "--once --remote --json, 3 nodes + 1 hung   $hung  (connect timeout 2 s)"
