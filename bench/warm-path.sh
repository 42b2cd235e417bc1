#!/usr/bin/env bash
# Warm-path benchmark (issue 8, item 6): what commands cost over three real OpenSSH nodes (Debian's
# sshd from the integration harness, four idle fake H100s each) with the SHIPPED DEFAULT queue
# configuration, first with no daemon, then with `queue daemon` running (what the keeper runs,
# default interval 15 s). Every figure comes from cold `bin/nvidb` processes:
#   status     median wall of RUNS `queue status --json`, and the age of its data
#              (end of the command minus the JSON's last_tick_at): median and max
#   submit     median wall of RUNS `job submit --json -- sleep 2`, and each job's delay from
#              submit to start (started_at - created_at, read back after the runs)
#   wait       median wall of RUNS `job submit --wait --json -- true`
#   tick       median duration_ms of RUNS `queue tick --json`: the command's own tick without a
#              daemon; the daemon's tick (over its open connections and resident agents) with one
# Targets (issue 8): status <= 0.30 s with data <= 2 s old; submit <= 0.30 s and running <= 1 s
# later; submit --wait -- true <= 1.0 s; the daemon's tick <= 0.15 s.
#
# Usage: bench/warm-path.sh [--runs N] [--no-build]
# Needs root (sshd, the nodes' login users nvidbt30..32 on 127.0.0.51..53), python3, gcc (the
# fake NVML). BENCH_BUILD_DIR (default target-bench) keeps this build apart from target/.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10 build_it=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --no-build) build_it=""; shift ;;
    *) echo "usage: $0 [--runs N] [--no-build]" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "needs root (starts sshd, creates the nodes' login users)" >&2; exit 2; }
. bench/lib.sh
start_set openssh dev.nvidb.integration.OpenSshBenchNodes
home=$work/openssh/home
export HOME=$home NVIDB_HOME=$home/.nvidb

nv() { timeout 180 bin/nvidb "$@" 2>>"$work/err.log"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
med() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

measure() { # LABEL
  local label=$1 t0 t1 out first last
  echo
  echo "== $label (load average at start: $(cut -d' ' -f1-3 /proc/loadavg))"
  : >"$work/status"; : >"$work/age"
  for _ in $(seq "$runs"); do
    t0=$(now_ms); out=$(nv queue status --json || true); t1=$(now_ms)
    echo $((t1 - t0)) >>"$work/status"
    printf '%s' "$out" | field "round($t1/1000 - (d['last_tick_at'] or 0), 2)" >>"$work/age" || echo 999 >>"$work/age"
  done
  echo "queue status --json        median $(med <"$work/status") ms  ($(sort -n "$work/status" | tr '\n' ' ')); data age median $(med <"$work/age") s, max $(sort -n "$work/age" | tail -1) s"
  : >"$work/submit"; first=""
  for _ in $(seq "$runs"); do
    t0=$(now_ms); out=$(nv job submit --json -- sleep 2 || true); t1=$(now_ms)
    echo $((t1 - t0)) >>"$work/submit"
    last=$(printf '%s' "$out" | field "d['job']['id']" 2>/dev/null || true); first=${first:-$last}
  done
  echo "job submit --json -- sleep 2  median $(med <"$work/submit") ms  ($(sort -n "$work/submit" | tr '\n' ' '))"
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do   # let them all start (a read ticks, or asks the daemon)
    nv job ls --json >"$work/ls" || true
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(j["state"]=="pending" for j in d["jobs"]))' "$work/ls" && break
    sleep 0.5
  done
  python3 - "$work/ls" "${first:-0}" "${last:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lo, hi = int(sys.argv[2]), int(sys.argv[3])
delays = sorted(j["started_at"] - j["created_at"] for j in d["jobs"] if lo <= j["id"] <= hi and j["started_at"])
if delays:
    print(f"  submit -> running (started_at - created_at): median {delays[len(delays) // 2]:.2f} s, max {delays[-1]:.2f} s over {len(delays)} jobs")
else:
    print("  submit -> running: no job started")
PY
  : >"$work/wait"; local bad=0
  for _ in $(seq "$runs"); do
    t0=$(now_ms); nv job submit --wait --json -- true >/dev/null || bad=$((bad + 1)); t1=$(now_ms)
    echo $((t1 - t0)) >>"$work/wait"
  done
  echo "job submit --wait -- true  median $(med <"$work/wait") ms  ($(sort -n "$work/wait" | tr '\n' ' '); $bad exit!=0)"
  : >"$work/tick"
  for _ in $(seq "$runs"); do
    nv queue tick --json | field "d['duration_ms']" >>"$work/tick" || true
  done
  echo "tick (queue tick --json duration_ms)  median $(med <"$work/tick") ms  ($(sort -n "$work/tick" | tr '\n' ' '))"
}

echo "nvidb warm-path benchmark (issue 8 item 6), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), OpenSSH $(ssh -V 2>&1 | cut -d, -f1)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (+ uncommitted changes)'); runs per median: $runs"
echo "queue.yml: $(grep -c . "$NVIDB_HOME/queue.yml") lines, servers only (shipped defaults)"
nv queue tick >/dev/null || true
measure "no daemon"
bin/nvidb queue daemon >"$work/daemon.log" 2>&1 &
bench_stop_extra=$!
for _ in $(seq 100); do [ -S "$NVIDB_HOME/queue.db.daemon" ] && break; sleep 0.1; done
[ -S "$NVIDB_HOME/queue.db.daemon" ] || { echo "the daemon did not start: $(cat "$work/daemon.log")" >&2; exit 1; }
nv queue tick >/dev/null || true   # its first pass starts the resident agents
measure "queue daemon running (default interval 15 s)"
[ -s "$work/err.log" ] && { echo; echo "stderr of the commands (last 5 lines):"; tail -5 "$work/err.log"; }
