#!/usr/bin/env bash
# Cold-process benchmark for the queue (issue 3). Every figure is the median wall time of RUNS
# cold `bin/nvidb` processes (default 10) against harness SSH nodes (MINA on 127.0.0.x, fake
# GPUs) configured as queue servers (queue.yml servers, include_local: false,
# tick_min_interval: 0), each node set in its own HOME/NVIDB_HOME:
#   job ls --no-tick --json          over a 1,000-job database in mixed states (BenchQueueDb)
#   queue tick --json                over 1 node and over 3 nodes (wall, and the tick's own duration_ms)
#   job submit --wait --json -- true from submit to completed (and a plain submit, alternating)
#   queue tick --json                over 3 nodes + 1 hung node, after a first tick (the hung node backs off)
#   planning 10,000 pending jobs over 64 nodes x 8 GPUs in-process (LargeQueueTest.main, C2 and C1-only)
#   16 concurrent submitter processes x SUBMITS each: submissions per second, errors, lost/duplicated jobs
# Usage: bench/queue.sh [RUNS] [SUBMITS]     (figures go in docs/benchmarks.md)
# BENCH_BUILD_DIR (default target-bench) keeps this build apart from others working in the tree.
# BENCH_ONLY="ls tick submit hung plan conc" runs a subset.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
submits=${2:-4}
only=${BENCH_ONLY:-"ls tick submit hung plan conc"}
build=${BENCH_BUILD_DIR:-target-bench}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
wants() { [[ " $only " == *" $1 "* ]]; }

build_log=$work/build.log
{ ./mvnw -q -Dnvidb.build.dir="$build" -DskipTests package &&
  ./mvnw -q -Dnvidb.build.dir="$build" test-compile dependency:build-classpath -Dmdep.outputFile="$build/test.cp"
} >"$build_log" 2>&1 || { echo "build failed:" >&2; tail -30 "$build_log" >&2; exit 1; }
export NVIDB_BUILD_DIR=$PWD/$build
export NVIDB_NO_BUILD=1   # measure commands, not the launcher's staleness check rebuilding after edits
# bin/nvidb builds its CDS archive only when it is missing; after `mvnw package` rewrote the jar an
# old archive no longer matches it and the JVM silently runs without any CDS, so drop it here.
[ "$build/nvidb.jar" -nt "$build/nvidb.jsa" ] && rm -f "$build/nvidb.jsa"
bin/nvidb --version >/dev/null   # the package step made the CDS archive (src/cds/train.sh); an older one is not used
cp="$build/test-classes:$build/classes:$(cat "$build/test.cp")"

start_hosts() { # NAME COUNT [hung] ; hosts stay up until the fifo's writer closes (at exit)
  local dir=$work/$1
  mkfifo "$dir.in"
  java -Dnvidb.fake.nvml.dir="$PWD/$build/fake-nvml" -cp "$cp" dev.nvidb.bench.BenchHosts "$dir" "${@:2}" queue \
    <"$dir.in" >"$dir.log" 2>&1 &
  eval "pid_$1=$!"
  local fd
  exec {fd}>"$dir.in"
  eval "fd_$1=$fd"
  for _ in $(seq 150); do grep -q ready "$dir.log" 2>/dev/null && return 0; sleep 0.1; done
  echo "hosts did not start: $(cat "$dir.log")" >&2; exit 1
}

in_home() { # NAME command... : runs with that node set's HOME and NVIDB_HOME
  local home=$work/$1/home
  HOME=$home NVIDB_HOME=$home/.nvidb "${@:2}"
}

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
med() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
minmax() { sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%s..%s", lo, hi}'; }
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

# run_once NAME SET nvidb-args... : one cold `bin/nvidb` run in node set SET's home; wall ms appended
# to $work/NAME.wall, its CPU (user + sys, all threads) to $work/NAME.cpu, its stdout (one line) to
# $work/NAME.out, stderr to $work/NAME.err, a non-zero exit counted in $work/NAME.bad
run_once() {
  local name=$1 set=$2 t0 out rc=0; shift 2
  t0=$(date +%s%N)
  out=$(in_home "$set" /usr/bin/time -a -o "$work/$name.time" -f '%U %S' bin/nvidb "$@" 2>>"$work/$name.err") || rc=$?
  ms "$t0" >>"$work/$name.wall"
  printf '%s\n' "$(tr -d '\n' <<<"$out")" >>"$work/$name.out"
  [ "$rc" -eq 0 ] || echo "$rc" >>"$work/$name.bad"
}
report() { # NAME LABEL
  local cpu
  cpu=$(grep -E '^[0-9.]+ [0-9.]+$' "$work/$1.time" | awk '{printf "%.0f\n", ($1 + $2) * 1000}' | med)
  printf '%-46s median %5s ms  (%s; CPU %s ms; %d runs, %d exit!=0)\n' "$2" "$(med <"$work/$1.wall")" \
    "$(minmax <"$work/$1.wall")" "$cpu" "$(grep -c . "$work/$1.wall")" "$(cat "$work/$1.bad" 2>/dev/null | grep -c . || true)"
}
# time_runs NAME LABEL command... : RUNS cold runs in a row, then the report line
time_runs() {
  local name=$1 label=$2; shift 2
  for _ in $(seq "$runs"); do run_once "$name" "$@"; done
  report "$name" "$label"
}

# median of a JSON field over the documents in $work/NAME.out
field_median() {
  python3 -c '
import json, sys
vals = sorted(json.loads(l)[sys.argv[2]] for l in open(sys.argv[1]) if l.strip())
print(vals[(len(vals) - 1) // 2] if vals else "-")' "$work/$1.out" "$2"
}

echo "nvidb queue benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, runs per figure: $runs"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

if wants tick; then start_hosts one 1; fi
if wants ls || wants tick || wants submit; then start_hosts three 3; fi
if wants hung; then start_hosts hung 3 hung; start_hosts calm 3; fi
if wants conc; then start_hosts conc 3; fi

time_runs version "nvidb --version (baseline at this load)" three --version

if wants ls; then
  java -cp "$cp" dev.nvidb.bench.BenchQueueDb "$work/ls.db" 1000 3 >/dev/null
  n=$(in_home three bin/nvidb job ls --no-tick --json --db-path "$work/ls.db" | python3 -c \
    'import json,sys; d=json.load(sys.stdin); print(len(d["jobs"]))')
  for _ in $(seq "$runs"); do   # alternating, so a change in the machine's load hits both alike
    run_once ls three job ls --no-tick --json --db-path "$work/ls.db"
    run_once lsn three job ls --no-tick --json -n 20 --db-path "$work/ls.db"
  done
  report ls "job ls --no-tick --json ($n jobs)"
  report lsn "job ls --no-tick --json -n 20 (same db)"
fi

# The harness's nodes are MINA servers in a JVM: their first handshakes run interpreted (a real sshd
# needs no warm-up), so every node set gets a few untimed ticks before it is measured.
warm() { for _ in $(seq 5); do in_home "$1" bin/nvidb queue tick --json >/dev/null 2>&1 || true; done; }

if wants tick; then
  warm one; warm three
  node_cpu() { awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat"; }  # harness JVM + its reaped children
  c1=$(node_cpu "$pid_one"); c3=$(node_cpu "$pid_three")
  for _ in $(seq "$runs"); do   # alternating, so a change in the machine's load hits both alike
    run_once tick1 one queue tick --json
    run_once tick3 three queue tick --json
  done
  tck=$(getconf CLK_TCK)
  c1=$(( ($(node_cpu "$pid_one") - c1) * 1000 / tck / runs )); c3=$(( ($(node_cpu "$pid_three") - c3) * 1000 / tck / runs ))
  report tick1 "queue tick --json, 1 node"
  report tick3 "queue tick --json, 3 nodes"
  t1=$(med <"$work/tick1.wall"); t3=$(med <"$work/tick3.wall")
  echo "  ratio 3 nodes / 1 node                         $(awk -v a="$t3" -v b="$t1" 'BEGIN {printf "%.2f", a/b}')"
  echo "  in-process tick (duration_ms median): 1 node $(field_median tick1 duration_ms) ms, 3 nodes $(field_median tick3 duration_ms) ms"
  echo "  node-side CPU per tick (MINA sshd + python agents, on this same machine): 1 node $c1 ms, 3 nodes $c3 ms"
fi

if wants submit; then
  wants tick || warm three
  for _ in $(seq "$runs"); do   # alternating with a plain submit (which places and launches at once)
    run_once submit three job submit --wait --json -- true
    run_once submitted three job submit --json -- true
  done
  report submit "job submit --wait --json -- true"
  report submitted "job submit --json -- true (no --wait)"
  python3 -c '
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
states = [j["state"] for d in docs for j in d["jobs"]]
print("  end states (--wait):", {s: states.count(s) for s in set(states)})' "$work/submit.out"
fi

if wants hung; then
  t0=$(date +%s%N)
  in_home hung bin/nvidb queue tick --json >/dev/null || true
  echo "first tick with a hung node (pays the 2 s connect timeout)  $(ms "$t0") ms"
  warm hung; warm calm
  for _ in $(seq "$runs"); do   # alternating with a tick of 3 other nodes with the same history
    run_once hung hung queue tick --json
    run_once normal calm queue tick --json
  done
  report hung "queue tick --json, 3 nodes + 1 hung, later"
  report normal "queue tick --json, 3 nodes (alternating)"
  python3 - "$work/hung.out" "$work/hung.wall" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
walls = [int(l) for l in open(sys.argv[2]) if l.strip()]
med = lambda v: sorted(v)[(len(v) - 1) // 2] if v else "-"
tried = [i for i, d in enumerate(docs) if any("hung" in str(f) for f in d["failed"])]
calm = [i for i in range(len(docs)) if i not in tried]
print(f"  runs that contacted the hung node again (its back-off had expired; exit 1): {len(tried)} of {len(docs)}")
print(f"  runs that skipped it (backing off): wall median {med([walls[i] for i in calm])} ms, "
      f"in-process tick median {med([docs[i]['duration_ms'] for i in calm])} ms")
PY
  echo "  hung-set median minus 3-node median          $(( $(med <"$work/hung.wall") - $(med <"$work/normal.wall") )) ms" \
    "(in-process: hung set $(field_median hung duration_ms) ms, 3 nodes $(field_median normal duration_ms) ms)"
fi

if wants plan; then
  echo "planning 10,000 pending jobs over 64 nodes x 8 GPUs (LargeQueueTest.main):"
  echo "  default JVM (C2):"
  java -cp "$cp" dev.nvidb.scheduler.LargeQueueTest | sed 's/^/    /'
  echo "  launcher flags (-XX:TieredStopAtLevel=1 -XX:+UseSerialGC, as bin/nvidb runs it):"
  java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.nvidb.scheduler.LargeQueueTest | sed 's/^/    /'
fi

if wants conc; then
  warm conc
  for mode in tick no-tick; do
    extra=(); [ "$mode" = no-tick ] && extra=(--no-tick)
    : >"$work/conc.err"
    t0=$(date +%s%N)
    pids=()
    for s in $(seq 16); do
      (
        for k in $(seq "$submits"); do
          in_home conc bin/nvidb job submit --json "${extra[@]}" -n "c-$mode-$s-$k" -- true \
            >/dev/null 2>>"$work/conc.err.$s" || echo "submitter $s #$k: exit $?" >>"$work/conc.err.$s"
        done
      ) &
      pids+=($!)
    done
    wait "${pids[@]}" || true
    wall=$(ms "$t0")
    cat "$work"/conc.err.* >>"$work/conc.err" 2>/dev/null || true; rm -f "$work"/conc.err.*
    total=$((16 * submits))
    errors=$(grep -c . "$work/conc.err" || true)
    printf '16 concurrent submitters x %d (%s): %d submissions in %d ms = %s/s, %d error lines\n' "$submits" \
      "submit$([ "$mode" = no-tick ] && echo ' --no-tick' || echo ', each ticking')" "$total" "$wall" \
      "$(awk -v n="$total" -v w="$wall" 'BEGIN {printf "%.1f", n * 1000 / w}')" "$errors"
    [ "$errors" -eq 0 ] || sed 's/^/    /' "$work/conc.err" | head -5
  done
  # every submission is there exactly once, and they all run to completion (bounded)
  for _ in $(seq 40); do
    in_home conc bin/nvidb queue tick --json >/dev/null || true
    left=$(in_home conc bin/nvidb job ls --no-tick --json --active | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["jobs"]))')
    [ "$left" -eq 0 ] && break
    sleep 0.5
  done
  in_home conc bin/nvidb job ls --no-tick --json | python3 -c '
import json, sys
jobs = json.load(sys.stdin)["jobs"]
names = [j["name"] for j in jobs]
states = [j["state"] for j in jobs]
print(f"  jobs recorded: {len(jobs)} (expected {sys.argv[1]}), duplicated names: {len(names) - len(set(names))}, "
      f"states: { {s: states.count(s) for s in set(states)} }")' $((32 * submits))
fi

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
