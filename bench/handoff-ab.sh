#!/usr/bin/env bash
# Handed-command latency of two builds, alternated run by run (issue 27, item 3).
#   bench/handoff-ab.sh BEFORE_CHECKOUT AFTER_CHECKOUT [RUNS]
# Each checkout must be built (./mvnw -DskipTests package). Each gets a fresh home with its own
# `queue daemon` (no nodes), so every command below is handed to that daemon; the figures are
# medians of cold `bin/nvidb` processes, as a user starts them.
set -euo pipefail
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); runs=${3:-10}
work=$(mktemp -d); trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
for side in before after; do
  mkdir -p "$work/$side/.nvidb"; chmod -R 700 "$work/$side"
  dir=$before; [ $side = after ] && dir=$after
  NVIDB_HOME=$work/$side/.nvidb HOME=$work/$side setsid "$dir/bin/nvidb" queue daemon --interval 3600 --no-notify \
    >"$work/$side.log" 2>&1 </dev/null & echo $! >"$work/$side.pid"
done
for _ in $(seq 300); do [ -S "$work/before/.nvidb/queue.db.daemon" ] && [ -S "$work/after/.nvidb/queue.db.daemon" ] && break; sleep 0.1; done
once() {
  local side=$1; shift; local dir=$before; [ $side = after ] && dir=$after
  local start; start=$(date +%s%N)
  NVIDB_HOME=$work/$side/.nvidb HOME=$work/$side "$dir/bin/nvidb" "$@" >/dev/null 2>&1 </dev/null
  echo $(( ($(date +%s%N) - start) / 1000000 ))
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for line in "queue status --json --no-tick" "job ls --json --no-tick" "job submit --json --no-tick --gpus 0 -- true"; do
  a=(); b=()
  for _ in $(seq "$runs"); do a+=("$(once before $line)"); b+=("$(once after $line)"); done
  echo "$line: before $(printf '%s\n' "${a[@]}" | median) ms, after $(printf '%s\n' "${b[@]}" | median) ms (medians of $runs)"
done
