#!/usr/bin/env bash
# Start-up A/B: two builds of nvidb, each run through its own launcher, interleaved run by run so
# the machine's load hits both alike; medians of RUNS cold processes (default 15) of
#   nvidb --version
#   nvidb job ls --no-tick --json        over a 1,000-job database (BenchQueueDb)
#   nvidb --once --remote --json         over 3 MINA harness nodes (BenchHosts)
# Usage: bench/startup-ab.sh A_ROOT A_BUILD B_ROOT B_BUILD [RUNS]
#   X_ROOT is a tree with bin/nvidb, X_BUILD its built folder (nvidb.jar; the test classes and
#   test.cp of B_BUILD start the harness, as bench/queue.sh builds them). Each launcher runs with
#   NVIDB_NO_BUILD=1 and whatever CDS archive it uses (one untimed run first, so a launcher that
#   makes its archive lazily has made it).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
a_root=$(cd "$1" && pwd) a_build=$(cd "$2" && pwd) b_root=$(cd "$3" && pwd) b_build=$(cd "$4" && pwd)
runs=${5:-15}
[ -f "$b_build/test.cp" ] && [ -d "$b_build/test-classes" ] || { echo "$b_build has no test classes / test.cp" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { [ -n "${hosts_fd:-}" ] && exec {hosts_fd}>&-; sleep 0.5; kill $(jobs -pr) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export NVIDB_NO_BUILD=1
cp="$b_build/test-classes:$b_build/classes:$(cat "$b_build/test.cp")"

mkfifo "$work/hosts.in"
java -Dnvidb.fake.nvml.dir="$b_build/fake-nvml" -cp "$cp" dev.nvidb.bench.BenchHosts "$work/h" 3 \
  <"$work/hosts.in" >"$work/hosts.log" 2>&1 &
exec {hosts_fd}>"$work/hosts.in"
for _ in $(seq 300); do grep -q ready "$work/hosts.log" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/hosts.log" || { echo "hosts did not start: $(cat "$work/hosts.log")" >&2; exit 1; }
java -cp "$cp" dev.nvidb.bench.BenchQueueDb "$work/ls.db" 1000 3 >/dev/null
export HOME=$work/h/home NVIDB_HOME=$work/h/home/.nvidb

run() { # ROOT BUILD args... -> wall ms (a failing run is reported)
  local root=$1 build=$2 t0 rc=0; shift 2
  t0=$(date +%s%N)
  NVIDB_BUILD_DIR=$build "$root/bin/nvidb" "$@" >/dev/null 2>"$work/err" || rc=$?
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
  [ $rc -eq 0 ] || echo "exit $rc: $* ($(head -1 "$work/err"))" >>"$work/failures"
}
for side in a b; do   # untimed: lazy archives, the harness's MINA warm-up
  eval "root=\$${side}_root build=\$${side}_build"
  for _ in 1 2 3; do run "$root" "$build" --once --remote --json >/dev/null; done
done
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "start-up A/B, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, medians of $runs interleaved cold runs (ms)"
echo "A: $a_root ($a_build)"
echo "B: $b_root ($b_build)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-40s %8s %8s %8s\n' command A B B-A
for args in "--version" "job ls --no-tick --json --db-path $work/ls.db" "--once --remote --json"; do
  : >"$work/a"; : >"$work/b"
  for i in $(seq "$runs"); do
    if [ $((i % 2)) = 1 ]; then   # alternate which side goes first
      # shellcheck disable=SC2086
      run "$a_root" "$a_build" $args >>"$work/a"; run "$b_root" "$b_build" $args >>"$work/b"
    else
      # shellcheck disable=SC2086
      run "$b_root" "$b_build" $args >>"$work/b"; run "$a_root" "$a_build" $args >>"$work/a"
    fi
  done
  ma=$(med <"$work/a"); mb=$(med <"$work/b")
  printf '%-40s %8s %8s %8s\n' "${args/ --db-path*/}" "$ma" "$mb" "$((mb - ma))"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ ! -s "$work/failures" ] || { echo "failed runs:"; sort | uniq -c <"$work/failures"; }
