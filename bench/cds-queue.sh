#!/usr/bin/env bash
# Experiment: what do queue commands gain when bin/nvidb's CDS archive covers the classes they
# load (sqlite-jdbc, store, engine, scheduler), not only those of the archive's `__warmup` run?
# Builds a second archive for the same jar from the warm-up's class list plus those of `job ls`,
# `queue tick` and `job submit`, in a scratch copy of the build folder, and times each command
# with both archives, alternating (medians of RUNS cold runs, 3 harness nodes).
# Needs bench/queue.sh's build (BENCH_BUILD_DIR, default target-bench); changes nothing in it.
# Usage: bench/cds-queue.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
build=${BENCH_BUILD_DIR:-target-bench}
[ -f "$build/nvidb.jar" ] && [ -f "$build/test.cp" ] || { echo "run bench/queue.sh first" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
export NVIDB_NO_BUILD=1
cp="$build/test-classes:$build/classes:$(cat "$build/test.cp")"

for v in plain queue; do
  mkdir -p "$work/$v"
  cp -p "$build/nvidb.jar" "$work/$v/"
  cp -rp "$build/native" "$work/$v/" 2>/dev/null || true
done
# the build's own archive, made for this copy (an archive fits its jar only at the path it was made for)
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
bash src/cds/train.sh "$java_home" "$work/plain" "$(tr ':' '\n' <"$build/test.cp" | grep -m1 '/sshd-core-')"

mkfifo "$work/hosts.in"
java -Dnvidb.fake.nvml.dir="$PWD/$build/fake-nvml" -cp "$cp" dev.nvidb.bench.BenchHosts "$work/h" 3 queue \
  <"$work/hosts.in" >"$work/hosts.log" 2>&1 &
exec {hosts_fd}>"$work/hosts.in"
for _ in $(seq 150); do grep -q ready "$work/hosts.log" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/hosts.log" || { echo "hosts did not start" >&2; exit 1; }
java -cp "$cp" dev.nvidb.bench.BenchQueueDb "$work/ls.db" 1000 3 >/dev/null
export HOME=$work/h/home NVIDB_HOME=$work/h/home/.nvidb

jar=$work/queue/nvidb.jar
opts=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss1m
  -Dorg.sqlite.lib.path="$(dirname "$(find "$work/queue/native" -name libsqlitejdbc.so | head -1)")"
  -Dorg.sqlite.lib.name=libsqlitejdbc.so)
i=0
# (the warm-up runs here without the build's SSH training server, so part0 lacks the SSH client path)
for args in "__warmup" "job ls --no-tick --json --db-path $work/ls.db" "queue tick --json" "job submit --json -- true"; do
  # shellcheck disable=SC2086
  java "${opts[@]}" -Xshare:off -XX:DumpLoadedClassList="$work/part$i.lst" -jar "$jar" $args >/dev/null 2>&1 || true
  i=$((i + 1))
done
# one line per class (the first seen); lambda-proxy lines kept whole, once each
cat "$work"/part*.lst | awk '/^#/ {next} /^@/ {if (!seen[$0]++) print; next} !seen[$1]++' >"$work/queue.lst"
java -Xshare:dump -XX:SharedClassListFile="$work/queue.lst" -XX:SharedArchiveFile="$work/queue/nvidb.jsa" \
  -cp "$jar" >"$work/dump.log" 2>&1 || { echo "dump failed: $(tail -5 "$work/dump.log")" >&2; exit 1; }
printf '%s\n' "$jar" >"$work/queue/nvidb.jsa.path"   # bin/nvidb passes an archive only for the jar it names
echo "class list: warm-up $(grep -vc '^#' "$work/part0.lst") lines, with queue commands $(grep -c . "$work/queue.lst")"
for _ in 1 2 3; do bin/nvidb queue tick --json >/dev/null 2>&1 || true; done   # warm the harness

med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
one() { # BUILD_DIR args...  -> wall ms
  local d=$1 t0; shift
  t0=$(date +%s%N); NVIDB_BUILD_DIR=$d bin/nvidb "$@" >/dev/null 2>&1 || true
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}
echo "$(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg), medians of $runs cold runs (ms)"
printf '%-34s %14s %14s\n' command "warm-up list" "+ queue lists"
for args in "--version" "job ls --no-tick --json --db-path $work/ls.db" "job ls --no-tick --json -n 20 --db-path $work/ls.db" \
  "queue tick --json"; do
  : >"$work/a"; : >"$work/b"
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086
    one "$work/plain" $args >>"$work/a"
    # shellcheck disable=SC2086
    one "$work/queue" $args >>"$work/b"
  done
  printf '%-34s %14s %14s\n' "${args/ --db-path*/}" "$(med <"$work/a")" "$(med <"$work/b")"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
