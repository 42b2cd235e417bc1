#!/usr/bin/env bash
# A/B of the lone `job submit --wait --json -- true` (issue 6, item 11: <= 1.5 s) over three real
# OpenSSH nodes with the shipped queue defaults: build A (a git revision, built in a worktree) and
# build B (this tree) take turns, each run 4.5 s after the last (no submit ticker lingering), so
# load on the machine hits both alike. Prints each build's median and runs.
# Usage: sudo bench/wait-ab.sh REV [PAIRS]    (needs root: sshd and the nodes' login users)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: $0 REV [PAIRS]}
pairs=${2:-8}
[ "$(id -u)" = 0 ] || { echo "needs root (starts sshd, creates the nodes' login users)" >&2; exit 2; }
build_it=1
. bench/lib.sh
a_tree=$work/a-tree
git worktree add -q --detach "$a_tree" "$rev"
bench_stop_extra=""
trap 'git worktree remove --force "$a_tree" 2>/dev/null; bench_cleanup' EXIT
(cd "$a_tree" && ./mvnw -q -o -DskipTests package >"$work/a-build.log" 2>&1) || { tail -20 "$work/a-build.log" >&2; exit 1; }
start_set openssh dev.nvidb.integration.OpenSshBenchNodes
for side in a b; do
  mkdir -p "$work/$side/.nvidb"
  cp "$work/openssh/home/.nvidb/queue.yml" "$work/$side/.nvidb/queue.yml"
  cp -r "$work/openssh/home/.ssh" "$work/$side/.ssh"
done
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
med() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
run() { # SIDE BUILD-DIR
  local t0 t1
  sleep 4.5
  t0=$(now_ms)
  HOME=$work/$1 NVIDB_HOME=$work/$1/.nvidb NVIDB_BUILD_DIR=$2 timeout 60 bin/nvidb job submit --wait --json -- true \
    >/dev/null 2>>"$work/$1.err" || echo "exit $? ($1)" >>"$work/$1.fail"
  t1=$(now_ms); echo $((t1 - t0)) >>"$work/$1.times"
}
# One untimed run each: the nodes' first connections, the queue databases.
run a "$a_tree/target"; run b "$PWD/$build"; : >"$work/a.times"; : >"$work/b.times"
for _ in $(seq "$pairs"); do
  run a "$a_tree/target"
  run b "$PWD/$build"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in a b; do
  label=$([ $side = a ] && echo "A ($rev)" || echo "B (this tree)")
  echo "$label: job submit --wait --json -- true on its own  median $(med <"$work/$side.times") ms  ($(sort -n "$work/$side.times" | tr '\n' ' ')$( [ -f "$work/$side.fail" ] && echo "; $(wc -l <"$work/$side.fail") failed"))"
done
