#!/usr/bin/env bash
# Build step (pom.xml, phase package, after the shaded jar): makes what bin/nvidb needs to start
# fast, once, next to the jar, readable by whoever can read the jar, so other accounts using
# this install get it without writing anything:
#   nvidb.jsa   a static class-data sharing archive of the classes a command loads, trained by
#               CdsTraining (nvidb __warmup, with an SSH probe against a server that lives
#               only here: the production jar ships no SSH server)
#   nvidb.jsa.path  the jar the archive was made for (a moved install's archive does not fit)
#   nvidb-client.jsa  a small static archive of what a command handed to a running queue daemon
#               loads (daemon.Handoff: connect, send, relay), trained against a daemon started here;
#               mapping the big archive costs such a command more than it saves
#   native/     SQLite's JDBC native library for this machine, so no run extracts it to /tmp
# A failure here is reported and leaves the build usable: bin/nvidb then runs without CDS.
# Usage: train.sh JAVA_HOME BUILD_DIR SSHD_CORE_JAR
set -uo pipefail
java_home=$1 sshd_core=$3
build=$(cd "$2" && pwd -P)   # absolute: the archive and nvidb.jsa.path name the jar by its full path
here=$(cd "$(dirname "$0")" && pwd)
jar=$build/nvidb.jar
work=$build/cds-training
rm -rf "$work" "$build/nvidb.jsa" "$build/nvidb.jsa.path" "$build/nvidb-client.jsa"
mkdir -p "$work/classes"
trap 'rm -rf "$work"' EXIT
fail() { echo "[WARNING] nvidb class-data archive not built ($1); bin/nvidb will start without it:" >&2; cat "$2" >&2; exit 0; }

# SQLite's native library for this machine (bin/nvidb passes its folder to sqlite-jdbc).
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch="" ;;
esac
rm -rf "$build/native"
if [ -n "$arch" ]; then
  lib=org/sqlite/native/Linux/$arch/libsqlitejdbc.so
  mkdir -p "$build/native"
  (cd "$build/native" && "$java_home/bin/jar" xf "$jar" "$lib") && [ -f "$build/native/$lib" ] &&
    chmod --reference="$jar" "$build/native/$lib" && touch "$build/native/$lib" ||
    echo "[WARNING] no SQLite native library for Linux/$arch in $jar; sqlite-jdbc will extract one per run" >&2
fi

"$java_home/bin/javac" -nowarn -d "$work/classes" -cp "$jar:$sshd_core" "$here/java/dev/nvidb/cds/CdsTraining.java" \
  >"$work/javac.log" 2>&1 || fail "training did not compile" "$work/javac.log"
# The flags bin/nvidb runs with, so the same classes load.
"$java_home/bin/java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xss1m -Xshare:off \
  -XX:DumpLoadedClassList="$work/classes.lst" -cp "$jar:$sshd_core:$work/classes" dev.nvidb.cds.CdsTraining "$work/keys" \
  >"$work/training.log" 2>&1 || fail "the training run failed" "$work/training.log"
grep -q '^dev/nvidb/ssh/Rehearsal' "$work/classes.lst" && grep -q '^org/apache/sshd/client/channel/ChannelExec' "$work/classes.lst" ||
  fail "the training run did not reach the SSH probe" "$work/training.log"
# Dumped with the production jar alone: the training's server classes are not in it and are left out.
"$java_home/bin/java" -Xshare:dump -XX:SharedClassListFile="$work/classes.lst" -XX:SharedArchiveFile="$work/nvidb.jsa" \
  -cp "$jar" >"$work/dump.log" 2>&1 || fail "the dump failed" "$work/dump.log"
chmod --reference="$jar" "$work/nvidb.jsa"
mv -f "$work/nvidb.jsa" "$build/nvidb.jsa"
# The JVM (17) accepts the archive only with the jar where it was when dumped; it refuses a moved
# install's, dropping the JDK's own archive too. bin/nvidb reads this to pass it only when it fits.
printf '%s\n' "$jar" >"$build/nvidb.jsa.path"
chmod --reference="$jar" "$build/nvidb.jsa.path"

# The handoff client's archive: a daemon with no nodes in a home of its own, and one command
# handed to it. Optional: without it bin/nvidb hands commands over with the JDK's own archive.
client_home=$work/client-home
mkdir -p "$client_home" && chmod 700 "$client_home"
NVIDB_HOME=$client_home HOME=$client_home "$java_home/bin/java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
  -cp "$jar" dev.nvidb.cli.Main queue daemon --interval 3600 --no-notify >"$work/client-daemon.log" 2>&1 </dev/null &
daemon=$!
for _ in $(seq 300); do [ -S "$client_home/queue.db.daemon" ] && break; sleep 0.1; done
# Two commands, a read and a submit, make the class list: each handed over (the client sends its
# words and relays the answer; it never parses them, which the daemon does).
client_run() {
  NVIDB_HOME=$client_home HOME=$client_home "$java_home/bin/java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
    -Xss1m -Xshare:off -Xlog:class+load=info:file="$work/client-$1.log" -XX:DumpLoadedClassList="$work/client-$1.lst" \
    -cp "$jar" dev.nvidb.cli.Main "${@:2}" >>"$work/client.log" 2>&1 </dev/null &&
    grep -q 'dev.nvidb.daemon.Handoff$Relay ' "$work/client-$1.log" && ! grep -q 'picocli.CommandLine ' "$work/client-$1.log"
}
client_ok=""
if [ -S "$client_home/queue.db.daemon" ] &&
  client_run status queue status --json --no-tick && client_run submit job submit --gpus 0 --no-tick -- true; then
  cat "$work/client-status.lst" "$work/client-submit.lst" | awk '!seen[$0]++' >"$work/client.lst"
  client_ok=1
fi
kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null
if [ -z "$client_ok" ]; then
  echo "[WARNING] nvidb handoff client archive not built (the training handoff did not happen); commands handed to a daemon start without it:" >&2
  cat "$work/client-daemon.log" "$work/client.log" >&2
elif "$java_home/bin/java" -Xshare:dump -XX:SharedClassListFile="$work/client.lst" -XX:SharedArchiveFile="$work/nvidb-client.jsa" \
    -cp "$jar" >"$work/client-dump.log" 2>&1; then
  chmod --reference="$jar" "$work/nvidb-client.jsa"
  mv -f "$work/nvidb-client.jsa" "$build/nvidb-client.jsa"
else
  echo "[WARNING] nvidb handoff client archive not built (the dump failed):" >&2
  cat "$work/client-dump.log" >&2
fi
