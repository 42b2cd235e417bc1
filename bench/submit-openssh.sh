#!/usr/bin/env bash
# Submit benchmark (issue 6, item 11): what a sweep of submissions costs with the queue's SHIPPED
# DEFAULT configuration (queue.yml lists the servers and nothing else: tick_min_interval 2 s,
# include_local false, ...), over three real OpenSSH nodes (Debian's sshd from the integration
# harness, one login user each, four idle fake H100s per node), and the same over three MINA
# harness nodes for comparison. Every figure comes from cold `bin/nvidb` processes:
#   submit     median wall of RUNS `job submit --json -- true`
#   wait       median wall of RUNS `job submit --wait --json -- true` (submit to completed), end states,
#              back to back (after the first, each finds the submit ticker lingering); then RUNS/2
#              on their own (4.5 s apart: no ticker left), which pay a cold JVM and a cold SSH tick
#   loop       LOOP `job submit -n loop-I -- sleep 1` in a row: total seconds, per-submit median;
#              then, from `job ls --json`, each loop job's delay from submit to start
#              (started_at - created_at): median, 90th percentile, max, how many over 3 s.
#              Jobs still pending after the loop are started by polling `job ls` (which ticks)
#              until every loop job has started, or 120 s; those delays count as measured.
# Targets (issue 6): submit <= 0.35 s, 200 in a loop <= 80 s, every job started within 3 s of
# its submit when GPUs are free, submit --wait -- true <= 1.5 s.
#
# Usage: bench/submit-openssh.sh [--loop N] [--runs N] [--only openssh|mina] [--no-build]
#   --loop N     submissions in the loop (default 200; 50 keeps a whole run near 4 minutes)
#   --runs N     cold runs per median (default 10)
#   --only SET   one node set (default both: openssh, then mina)
#   --no-build   reuse BENCH_BUILD_DIR as it is (after a run that built it)
# Needs root (sshd, the nodes' login users nvidbt30..32 on 127.0.0.51..53), python3, gcc (the
# fake NVML). BENCH_BUILD_DIR (default target-bench) keeps this build apart from target/.
# Prints a report; docs/benchmarks.md records them. Every wait is bounded; nodes stop on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
loop=200 runs=10 only="openssh mina" build_it=1
while [ $# -gt 0 ]; do
  case $1 in
    --loop) loop=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --no-build) build_it=""; shift ;;
    *) echo "usage: $0 [--loop N] [--runs N] [--only openssh|mina] [--no-build]" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "needs root (starts sshd, creates the nodes' login users)" >&2; exit 2; }
. bench/lib.sh

nv() { # SET args... : one bin/nvidb in that set's home (bounded); a failure is noted in $work/SET.fail
  local set=$1 home=$work/$1/home rc=0; shift
  HOME=$home NVIDB_HOME=$home/.nvidb timeout 180 bin/nvidb "$@" 2>"$work/last.err" || rc=$?
  [ $rc -eq 0 ] || echo "exit $rc: nvidb $* ($(tail -1 "$work/last.err"))" >>"$work/$set.fail"
  return $rc
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
med() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

measure() { # SET LABEL
  local set=$1 label=$2 t0 t1 out rc
  echo
  echo "== $label: 3 nodes, shipped queue defaults ($(sed -n '/^queue:/,$p' "$work/$set/home/.nvidb/queue.yml" | wc -l) queue: keys set)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  nv "$set" queue nodes --json >"$work/$set.nodes" 2>&1 || true
  python3 - "$work/$set.nodes" <<'PY' || { echo "the nodes are not up: nothing to measure" >&2; exit 1; }
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    sys.exit("queue nodes did not answer as JSON: " + open(sys.argv[1]).read()[:500])
print("nodes:", ", ".join(f"{n['node']} {n['status']}" for n in d["nodes"]))
down = [f"{n['node']}: {n['last_error']}" for n in d["nodes"] if n["status"] != "up"]
if down:
    sys.exit("not up: " + "; ".join(down))
PY
  # job submit -- true, cold, RUNS times
  : >"$work/$set.submit"; local bad=0
  for _ in $(seq "$runs"); do
    t0=$(now_ms); rc=0; nv "$set" job submit --json -- true >/dev/null || rc=$?
    t1=$(now_ms); echo $((t1 - t0)) >>"$work/$set.submit"; [ $rc -eq 0 ] || bad=$((bad + 1))
  done
  echo "job submit --json -- true              median $(med <"$work/$set.submit") ms  ($(sort -n "$work/$set.submit" | tr '\n' ' '); $bad exit!=0)"
  # job submit --wait -- true, cold, RUNS times
  : >"$work/$set.wait"; : >"$work/$set.wait.out"; bad=0
  for _ in $(seq "$runs"); do
    t0=$(now_ms); rc=0; out=$(nv "$set" job submit --wait --json -- true) || rc=$?
    t1=$(now_ms); echo $((t1 - t0)) >>"$work/$set.wait"; [ $rc -eq 0 ] || bad=$((bad + 1))
    printf '%s\n' "$(tr -d '\n' <<<"$out")" >>"$work/$set.wait.out"
  done
  echo "job submit --wait --json -- true       median $(med <"$work/$set.wait") ms  ($(sort -n "$work/$set.wait" | tr '\n' ' '); $bad exit!=0)"
  python3 - "$work/$set.wait.out" <<'PY'
import json, sys
states = []
for line in open(sys.argv[1]):
    try:
        states += [j["state"] for j in json.loads(line)["jobs"]]
    except Exception:
        states.append("no JSON")
print("  end states (--wait):", {s: states.count(s) for s in sorted(set(states))})
PY
  # job submit --wait -- true on its own: no submit ticker lingering from an earlier submit (each
  # run waits out the ticker's 3 s linger first), so it pays a cold JVM and a cold SSH tick
  : >"$work/$set.lone"; bad=0
  for _ in $(seq $(( (runs + 1) / 2 ))); do
    sleep 4.5
    t0=$(now_ms); rc=0; nv "$set" job submit --wait --json -- true >/dev/null || rc=$?
    t1=$(now_ms); echo $((t1 - t0)) >>"$work/$set.lone"; [ $rc -eq 0 ] || bad=$((bad + 1))
  done
  echo "job submit --wait -- true, on its own  median $(med <"$work/$set.lone") ms  ($(sort -n "$work/$set.lone" | tr '\n' ' '); $bad exit!=0)"
  # the loop
  : >"$work/$set.loop"; bad=0
  local start end
  start=$(now_ms)
  for i in $(seq "$loop"); do
    t0=$(now_ms); rc=0; nv "$set" job submit -n "loop-$i" -- sleep 1 >/dev/null || rc=$?
    t1=$(now_ms); echo $((t1 - t0)) >>"$work/$set.loop"; [ $rc -eq 0 ] || bad=$((bad + 1))
  done
  end=$(now_ms)
  echo "loop of $loop job submit -- sleep 1      total $(awk -v ms=$((end - start)) 'BEGIN {printf "%.1f", ms / 1000}') s, per submit median $(med <"$work/$set.loop") ms, max $(sort -n "$work/$set.loop" | tail -1) ms ($bad exit!=0)"
  # let every loop job start: `job ls` ticks (as throttled by the defaults); bounded
  local deadline=$((SECONDS + 120)) waiting=1
  while [ $SECONDS -lt $deadline ]; do
    nv "$set" job ls --json >"$work/$set.ls" || true
    waiting=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for j in d["jobs"] if j["name"].startswith("loop-") and j["started_at"] is None and j["state"] == "pending"))' \
      "$work/$set.ls" 2>/dev/null || echo 1)
    [ "$waiting" = 0 ] && break
    sleep 0.5
  done
  nv "$set" job ls --no-tick --json >"$work/$set.ls" || true
  python3 - "$work/$set.ls" "$loop" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = [j for j in d["jobs"] if j["name"].startswith("loop-")]
delays = sorted(j["started_at"] - j["created_at"] for j in jobs if j["started_at"] is not None)
never = [j for j in jobs if j["started_at"] is None]
q = lambda p: delays[min(len(delays) - 1, int(p * (len(delays) - 1) + 0.5))] if delays else float("nan")
print(f"  submit -> start (started_at - created_at) over {len(jobs)} loop jobs: median {q(0.5):.2f} s, "
      f"p90 {q(0.9):.2f} s, max {delays[-1] if delays else float('nan'):.2f} s; "
      f"{sum(1 for x in delays if x > 3)} started later than 3 s; {len(never)} never started")
states = [j["state"] for j in jobs]
print("  loop jobs' states now:", {s: states.count(s) for s in sorted(set(states))})
if len(jobs) != int(sys.argv[2]):
    print(f"  WARNING: {len(jobs)} loop jobs recorded, {sys.argv[2]} submitted")
PY
  if [ -s "$work/$set.fail" ]; then
    echo "  failed runs: $(grep -c . "$work/$set.fail"); first: $(head -1 "$work/$set.fail")"
  fi
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "nvidb submit benchmark (issue 6 item 11), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(java -version 2>&1 | head -1), OpenSSH $(ssh -V 2>&1 | cut -d, -f1)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (+ uncommitted changes)'); CDS archive: $([ -f "$build/nvidb.jsa" ] && [ ! "$build/nvidb.jar" -nt "$build/nvidb.jsa" ] && echo yes || echo no)"
echo "runs per median: $runs; loop: $loop"
for set in $only; do
  case $set in
    openssh) start_set openssh dev.nvidb.integration.OpenSshBenchNodes; measure openssh "OpenSSH sshd nodes" ;;
    mina)
      start_set mina dev.nvidb.bench.BenchHosts
      # BenchHosts tunes its queue.yml for bench/queue.sh; here: the servers only, shipped defaults
      printf 'servers:\n  - hostname: node1\n  - hostname: node2\n  - hostname: node3\n' >"$work/mina/home/.nvidb/queue.yml"
      rm -f "$work/mina/home/.nvidb/config.yml"
      for _ in 1 2 3; do nv mina queue tick --json >/dev/null 2>&1 || true; done   # MINA's JVM warms up; sshd needs none
      measure mina "MINA harness nodes" ;;
    *) echo "unknown set $set" >&2; exit 2 ;;
  esac
done
