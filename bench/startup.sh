#!/usr/bin/env bash
# Cold-process start-up and probe benchmark for the monitor (issue 2).
# Medians of RUNS runs (default 15) of:
#   nvidb --version
#   nvidb --once --remote --json   over 1 and over 3 harness SSH nodes (MINA, fake GPUs)
#   the same over 3 nodes plus one hung node (connect timeout 2 s)
#   nvidb --version with a CDS archive older than the jar (before issue 6 the JVM then silently
#   dropped every CDS archive, the JDK's own included; bin/nvidb now leaves such an archive out)
# Usage: bench/startup.sh [RUNS]     (figures go in docs/benchmarks.md)
# BENCH_BUILD_DIR (default target-bench) keeps this build apart from others working in the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
build=${BENCH_BUILD_DIR:-target-bench}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

{ ./mvnw -q -Dnvidb.build.dir="$build" -DskipTests package &&
  ./mvnw -q -Dnvidb.build.dir="$build" test-compile dependency:build-classpath -Dmdep.outputFile="$build/test.cp"
} >"$work/build.log" 2>&1 || { echo "build failed:" >&2; tail -30 "$work/build.log" >&2; exit 1; }
export NVIDB_BUILD_DIR=$PWD/$build
export NVIDB_NO_BUILD=1   # measure start-up, not the staleness check rebuilding after edits
# the launcher builds its CDS archive only when missing; one older than the jar no longer matches it
[ "$build/nvidb.jar" -nt "$build/nvidb.jsa" ] && rm -f "$build/nvidb.jsa"
bin/nvidb --version >/dev/null   # the package step made the CDS archive (src/cds/train.sh); an older one is not used
cp="$build/test-classes:$build/classes:$(cat "$build/test.cp")"

start_hosts() { # DIR COUNT [hung]
  mkfifo "$1.in"
  java -Dnvidb.fake.nvml.dir="$PWD/$build/fake-nvml" -cp "$cp" dev.nvidb.bench.BenchHosts "$@" \
    <"$1.in" >"$1.log" 2>&1 &
  exec {fd}>"$1.in"
  eval "fd_$(basename "$1")=$fd"
  for _ in $(seq 100); do grep -q ready "$1.log" 2>/dev/null && return 0; sleep 0.1; done
  echo "hosts did not start: $(cat "$1.log")" >&2; exit 1
}

# Each round runs every command once, so a change in the machine's load (other work on it) hits
# all figures alike; the figure is the median over the rounds. Wall ms per command go to $work/NAME.ms.
once() { # NAME command...
  local name=$1 t0; shift
  t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true
  echo $(( ($(date +%s%N) - t0) / 1000000 )) >>"$work/$name.ms"
}
med() { sort -n "$work/$1.ms" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
home() { # SET command...
  HOME=$work/$1/home NVIDB_HOME=$work/$1/home/.nvidb "${@:2}"
}

start_hosts "$work/one" 1
start_hosts "$work/three" 3
start_hosts "$work/hung" 3 hung

stale_dir=$work/stale-build; mkdir -p "$stale_dir"
cp -p "$build/nvidb.jar" "$build/nvidb.jsa" "$stale_dir/"; cp -rp "$build/native" "$stale_dir/" 2>/dev/null || true
touch "$stale_dir/nvidb.jar"; touch -d '1 minute ago' "$stale_dir/nvidb.jsa"

# the harness's nodes are MINA servers in a JVM: warm their handshake code up first (untimed)
for _ in 1 2 3; do
  for set in one three; do home "$set" bin/nvidb --once --remote --json >/dev/null 2>&1 || true; done
done

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq "$runs"); do
  once v bin/nvidb --version
  once plain java -jar "$build/nvidb.jar" --version
  once stale env NVIDB_BUILD_DIR="$stale_dir" bin/nvidb --version
  once one home one bin/nvidb --once --remote --json
  once three home three bin/nvidb --once --remote --json
  once hung home hung bin/nvidb --once --remote --json
done
v=$(med v); plain=$(med plain); stale=$(med stale); one=$(med one); three=$(med three); hung=$(med hung)

echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average at start $load0"
echo "runs per figure: $runs (median, ms)"
echo "nvidb --version (launcher, CDS)            $v"
echo "java -jar nvidb.jar --version (no tuning)  $plain"
echo "nvidb --version, archive older than jar     $stale  (the launcher rebuilds a stale archive)"
echo "--once --remote --json, 1 node             $one"
echo "--once --remote --json, 3 nodes            $three"
echo "ratio 3 nodes / 1 node                     $(awk -v a="$three" -v b="$one" 'BEGIN {printf "%.2f", a/b}')"
echo "--once --remote --json, 3 nodes + 1 hung   $hung  (connect timeout 2 s)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
