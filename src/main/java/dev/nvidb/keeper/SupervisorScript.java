package dev.nvidb.keeper;

import dev.nvidb.agent.ShellQuote;
import java.nio.file.Path;

/**
 * The text of {@code $NVIDB_HOME/queue-keeper.sh}, the shell supervisor: a bash script that
 * runs {@code nvidb queue daemon} for one {@code NVIDB_HOME} and starts it again whenever it
 * stops. Pure: the paths and the interval are baked in, quoted by the one shell quoter.
 *
 * <p>What the script guarantees, and why:
 * <ul>
 * <li>one per home: it takes {@code flock -n} on {@code queue-keeper.lock} before anything else;
 *     the kernel drops that lock when the holder dies, so a dead supervisor never blocks the next.
 *     Every child runs with the lock's descriptor closed ({@code 9>&-}), so an orphaned child
 *     cannot keep it;</li>
 * <li>identity: {@code queue-keeper.pid} records the supervisor's and the daemon's pid with
 *     their start time in clock ticks (and the boot id), written atomically; a pid whose start
 *     time differs is another process and is never signalled;</li>
 * <li>the daemon runs in a session and process group of its own ({@code setsid}), so it can be
 *     stopped as a group; a daemon left behind by a supervisor that died is stopped by the next
 *     supervisor before it starts its own;</li>
 * <li>back-off: 1 s, doubling while the daemon keeps exiting within 30 s of its start, at most
 *     60 s, back to 1 s once it stayed up 30 s;</li>
 * <li>the log is cut at 1 MiB (checked every minute and before each start; the previous part is
 *     kept as {@code queue-keeper.log.1});</li>
 * <li>TERM (from {@code keeper stop}) stops the daemon's group (TERM, KILL after 10 s), removes
 *     the pid file and exits.</li>
 * </ul>
 */
final class SupervisorScript {

    /** Seconds the daemon must stay up for its next exit to count as a fresh failure. */
    static final int QUICK_SECONDS = 30;
    /** Quick exits in a row after which the keeper reports the daemon as failing. */
    static final int FAILING_AFTER = 3;
    /** Seconds a stopped daemon gets between TERM and KILL. */
    static final int GRACE_SECONDS = 10;

    private SupervisorScript() {
    }

    static String render(Path launcher, Path home, String interval, Path java) {
        return TEMPLATE
                .replace("@HOME@", ShellQuote.quote(home.toString()))
                .replace("@LAUNCHER@", ShellQuote.quote(launcher.toString()))
                .replace("@INTERVAL@", ShellQuote.quote(interval))
                .replace("@JAVA@", java == null ? "" : "[ -n \"${JAVA:-}\" ] || JAVA=" + ShellQuote.quote(java.toString())
                        + "\nexport JAVA\n")
                .replace("@QUICK@", Integer.toString(QUICK_SECONDS))
                .replace("@GRACE@", Integer.toString(GRACE_SECONDS));
    }

    private static final String TEMPLATE = """
            #!/bin/bash
            # nvidb queue keeper: the shell supervisor of one NVIDB_HOME. Written by
            # `nvidb queue keeper install` (which rewrites it: do not edit) and started, detached, by
            # `nvidb queue keeper start`. It runs `nvidb queue daemon` and starts it again whenever it
            # stops: after 1 s, doubling while the daemon keeps exiting within @QUICK@ s of its start
            # (at most 60 s), back to 1 s once it stayed up @QUICK@ s. One per NVIDB_HOME: it holds an
            # flock on queue-keeper.lock (the kernel drops it when the holder dies). queue-keeper.pid
            # names it and its daemon by pid and start time; its log is queue-keeper.log, cut at 1 MiB.
            set -u
            umask 077
            export NVIDB_HOME=@HOME@
            # Away from the directory it was started in, which may go away (an unmounted share).
            cd "$NVIDB_HOME" 2>/dev/null || cd /
            launcher=@LAUNCHER@
            interval=@INTERVAL@
            @JAVA@lock="$NVIDB_HOME/queue-keeper.lock"
            state="$NVIDB_HOME/queue-keeper.pid"
            log="$NVIDB_HOME/queue-keeper.log"
            log_max=1048576
            quick_seconds=@QUICK@
            backoff_max=60
            grace=@GRACE@

            say() {
              local now
              printf -v now '%(%Y-%m-%dT%H:%M:%S%z)T' -1
              printf '%s keeper[%s]: %s\\n' "$now" "$$" "$*" >>"$log"
            }

            # Sets ticks to the start time (clock ticks since boot) of process $1; fails when it is gone.
            start_ticks() {
              local stat
              ticks=
              read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
              stat=${stat##*) }
              set -- $stat
              [ "$1" != Z ] || return 1
              ticks=${20}
            }

            # TERM the process group $1, KILL what is left of it after $grace seconds.
            stop_group() {
              local waited=0
              kill -TERM -- "-$1" 2>/dev/null || return 0
              while kill -0 -- "-$1" 2>/dev/null && [ "$waited" -lt $((grace * 10)) ]; do
                sleep 0.1 9>&-
                waited=$((waited + 1))
              done
              kill -KILL -- "-$1" 2>/dev/null
              return 0
            }

            rotate() {
              local size
              size=$(stat -c %s "$log" 2>/dev/null 9>&-) || return 0
              [ "${size:-0}" -gt "$log_max" ] || return 0
              cp -f "$log" "$log.1" 9>&- && : >"$log"
              say "log cut at $size bytes; the part before is in $log.1"
            }

            write_state() {
              printf '%s\\n' "kind=shell" "supervisor_pid=$$" "supervisor_start=$self_start" "boot_id=$boot_id" \\
                "started_at=$started_at" "interval=$interval" "daemon_pid=$dpid" "daemon_start=$dstart" \\
                "daemon_since=$dsince" "restarts=$restarts" "last_restart_at=$last_restart_at" \\
                "last_exit=$last_exit" "quick_exits=$quick" "next_start_at=$next_start_at" >"$state.tmp" \\
                && mv -f "$state.tmp" "$state" 9>&-
            }

            cleanup() {
              trap - TERM INT HUP
              [ -n "$tpid" ] && kill "$tpid" 2>/dev/null
              if [ -n "$dpid" ] && kill -0 "$dpid" 2>/dev/null; then
                say "stopping daemon $dpid"
                stop_group "$dpid"
              fi
              rm -f "$state" "$state.tmp" 9>&-
              say "keeper stopped"
            }

            exec 9>>"$lock" || exit 1
            if ! flock -n 9; then
              say "another keeper already runs for $NVIDB_HOME (it holds $lock); this one exits"
              exit 0
            fi

            # A daemon left by a keeper that died (its pid and start time still match): stop it first.
            if [ -r "$state" ]; then
              old_pid= old_start=
              while IFS='=' read -r key value; do
                case $key in
                  daemon_pid) old_pid=$value ;;
                  daemon_start) old_start=$value ;;
                esac
              done <"$state"
              if [ -n "$old_pid" ] && start_ticks "$old_pid" && [ "$ticks" = "$old_start" ]; then
                say "stopping daemon $old_pid, left running by a keeper that died"
                stop_group "$old_pid"
              fi
            fi

            boot_id=
            read -r boot_id </proc/sys/kernel/random/boot_id
            start_ticks "$$"
            self_start=$ticks
            printf -v started_at '%(%s)T' -1
            dpid= dstart= dsince= tpid= restarts=0 last_restart_at= last_exit= quick=0 next_start_at= backoff=1
            stopping=
            trap 'stopping=1' TERM INT HUP
            trap cleanup EXIT
            say "keeper started for NVIDB_HOME=$NVIDB_HOME: $launcher queue daemon --local --interval $interval"

            while [ -z "$stopping" ]; do
              rotate
              printf -v dsince '%(%s)T' -1
              # --local: this home's own queue, even if its queue.yml names a remote queue host
              setsid "$launcher" queue daemon --local --interval "$interval" </dev/null >>"$log" 2>&1 9>&- &
              dpid=$!
              start_ticks "$dpid"
              dstart=$ticks
              next_start_at=
              write_state
              say "daemon started (pid $dpid)"
              rc=
              # Wait for the daemon, waking every minute to keep the log bounded.
              while [ -z "$stopping" ] && kill -0 "$dpid" 2>/dev/null; do
                sleep 60 </dev/null >/dev/null 2>&1 9>&- &
                tpid=$!
                wait -n
                rc=$?
                kill "$tpid" 2>/dev/null
                wait "$tpid" 2>/dev/null
                tpid=
                kill -0 "$dpid" 2>/dev/null && rotate
              done
              [ -n "$stopping" ] && break
              wait "$dpid" 2>/dev/null
              status=$?
              [ "$status" -ne 127 ] && rc=$status
              printf -v now '%(%s)T' -1
              up=$((now - dsince))
              last_exit=$rc
              if [ "$up" -ge "$quick_seconds" ]; then
                backoff=1
                quick=0
              else
                quick=$((quick + 1))
              fi
              delay=$backoff
              [ "$quick" -gt 0 ] && backoff=$((backoff * 2 > backoff_max ? backoff_max : backoff * 2))
              dpid= dstart=
              next_start_at=$((now + delay))
              write_state
              say "daemon exited with status $rc after $up s; starting it again in $delay s"
              sleep "$delay" </dev/null >/dev/null 2>&1 9>&- &
              tpid=$!
              wait "$tpid"
              tpid=
              [ -n "$stopping" ] && break
              restarts=$((restarts + 1))
              printf -v last_restart_at '%(%s)T' -1
            done
            exit 0
            """;
}
