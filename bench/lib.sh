# Shared by the benchmarks that start harness node sets (sourced, not run): the build into
# $BENCH_BUILD_DIR, a cleanup that stops every node set and background job, and start_set.
# Before sourcing: set -euo pipefail, cwd = the repository root, build_it (non-empty: build).
# Defines: build, work, cp, fake; exports NVIDB_BUILD_DIR and NVIDB_NO_BUILD=1.
build=${BENCH_BUILD_DIR:-target-bench}
work=$(mktemp -d)
fds=""
bench_stop_extra=""   # a pid a script starts besides the node sets (killed first on exit)

bench_cleanup() {
  [ -n "$bench_stop_extra" ] && kill "$bench_stop_extra" 2>/dev/null
  for fd in $fds; do exec {fd}>&- 2>/dev/null || true; done   # a node set stops when its input closes
  local deadline=$((SECONDS + 20))
  while [ -n "$(jobs -pr)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  kill $(jobs -pr) 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap bench_cleanup EXIT

if [ -n "${build_it:-}" ]; then
  { ./mvnw -q -Dnvidb.build.dir="$build" -DskipTests package &&
    ./mvnw -q -Dnvidb.build.dir="$build" test-compile dependency:build-classpath -Dmdep.outputFile="$build/test.cp"
  } >"$work/build.log" 2>&1 || { echo "build failed:" >&2; tail -30 "$work/build.log" >&2; exit 1; }
fi
[ -f "$build/nvidb.jar" ] && [ -f "$build/test.cp" ] || { echo "no build in $build; run without --no-build" >&2; exit 1; }
export NVIDB_BUILD_DIR=$PWD/$build
export NVIDB_NO_BUILD=1   # measure commands, not the launcher's staleness check
cp="$build/test-classes:$build/classes:$(cat "$build/test.cp")"
fake=$PWD/$build/fake-nvml

start_set() { # NAME MAIN-CLASS : starts 3 nodes under $work/NAME, waits for "ready"
  local name=$1 main=$2 fd
  mkfifo "$work/$name.in"
  java -Dnvidb.fake.nvml.dir="$fake" -cp "$cp" "$main" "$work/$name" 3 <"$work/$name.in" >"$work/$name.log" 2>&1 &
  exec {fd}>"$work/$name.in"
  fds="$fds $fd"
  for _ in $(seq 600); do grep -q '^ready' "$work/$name.log" 2>/dev/null && return 0; sleep 0.1; done
  echo "$name nodes did not start: $(tail -20 "$work/$name.log")" >&2; exit 1
}
