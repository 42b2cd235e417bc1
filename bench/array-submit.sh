#!/usr/bin/env bash
# Time of one `job submit --array 0-999` (1,000 cells, one transaction) from one process, with
# the built launcher, against a fresh local queue (issue 10, item 3). Median of RUNS (default 5).
# Usage: bench/array-submit.sh [RUNS]     (the figure goes in docs/benchmarks.md)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
times=()
for run in $(seq "$runs"); do
  home="$work/home-$run"
  mkdir -p "$home/.nvidb"
  printf 'queue:\n  local_node_name: here\n' >"$home/.nvidb/queue.yml"
  HOME=$home NVIDB_HOME=$home/.nvidb bin/nvidb job ls --no-tick >/dev/null   # creates queue.db
  start=$(date +%s%N)
  HOME=$home NVIDB_HOME=$home/.nvidb bin/nvidb job submit --no-tick --gpus 0 --array 0-999%8 \
    -- 'python train.py --seed {}' >/dev/null 2>&1
  end=$(date +%s%N)
  count=$(HOME=$home NVIDB_HOME=$home/.nvidb bin/nvidb job ls --no-tick --json | grep -c '"id"')
  [ "$count" -ge 1000 ] || { echo "only $count jobs stored" >&2; exit 1; }
  times+=($(( (end - start) / 1000000 )))
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "job submit --array 0-999 (whole process): median " a[int((NR+1)/2)] " ms over " NR " runs"}'
