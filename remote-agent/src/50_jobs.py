# --- jobs on this node: their files, liveness, logs and queries (docs/agent-protocol.md, "Jobs")
#
# One directory per attempt holds: token, run.sh, pid (JSON identity written by the agent),
# stdout.log, stderr.log, exit ("CODE FINISHED_AT", written by the wrapper), and what the job
# writes itself: status (progress lines) and result.json. The job runs in work/ below it
# unless told otherwise, so a job that cleans its working directory leaves the queue's files
# alone. The ledger, <job_root>/.launched/<token>, records every launch before its wrapper
# starts: an attempt is started at most once, even when its directory is removed.

LOG_TAIL_BYTES = 8192
# How much of the end of each log of a job that exited non-zero is sent for the queue to look
# for out-of-memory messages in (model.FailureClass.OOM_SCAN_BYTES).
FAILURE_SCAN_BYTES = 16384
LOG_READ_LIMIT = 1048576  # the most bytes one log read returns (before base64)
PROGRESS_LIMIT = 500
RESULT_LIMIT = 1048576
KILL_SETTLE_S = 5
ARM_WAIT_S = 2
# A launch cut short (its agent died before the wrapper armed) is started again only once it
# is this old: long past the moment a wrapper its agent forked could still be on its way to
# exec, where nothing can find it yet.
CUT_SHORT_S = 2
LEDGER = ".launched"
LEDGER_KEEP_S = 30 * 86400
EXIT_SLOT_BYTES = 64
DEFAULT_JOB_ROOT = "~/.nvidb/jobs"
WRAPPER_MARK = "nvidb-wrapper"
# The wrapper is started in a new session, in the attempt directory, with "$1" = the umask
# the job should get and "$2" = the launch token (so the wrapper can be found by its token
# alone). It never dies of TERM (trapped, so children still get the default action) and
# announces that with the file "armed". Job control (set -m) puts the job in a process group
# of its own, whose id the job writes to "jobpgid" before it starts: kills go to that group
# only, never to the wrapper or the helpers it runs to record the status (143 after TERM,
# 137 after KILL); job control is off again once the job ended, so those helpers stay in
# the wrapper's group, which a kill that finds no job group never signals. A "cancel" file
# written before the job started stops it from starting: the kill writes "cancel" then
# reads "jobpgid", the job writes "jobpgid" then reads "cancel", so one of them always
# sees the other. "jobpgid" is written in place (one write of a few bytes: a reader finds it
# absent, empty or whole, and without a whole number falls back to the session's groups), which
# spares an mv(1) process before every job starts. The exit status is written into
# "exit.slot", which the agent filled before the start, so recording it needs no free disk
# space (a job that fills the disk still gets its exit code), then renamed to "exit". The
# time is bash's own clock ($EPOCHREALTIME, bash 5; its radix may be a comma) where it has
# one, which spares a date(1) process at the end of every job.
WRAPPER = r"""trap ':' TERM
: >armed
set -m
( echo "$BASHPID" >jobpgid
  [ -e cancel ] && exit 143
  umask "$1"; exec bash run.sh ) >stdout.log 2>stderr.log </dev/null
code=$?
set +m
t=${EPOCHREALTIME:-}
[ -n "$t" ] || t=$(date +%s.%N)
line="$code ${t/,/.}"
{ printf '%s\n' "$line" 1<>exit.slot && mv -f exit.slot exit; } 2>/dev/null ||
  { printf '%s\n' "$line" >exit.tmp && mv -f exit.tmp exit; }
"""


class BadEntry(Exception):
    """A request entry that lacks a field or has one of the wrong type."""


def field(entry, name, kind, default=None):
    """entry[name], checked: str means a non-empty string, int a whole number."""
    value = entry.get(name, default)
    if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value):
        raise BadEntry("bad request entry: %r must be %s" % (name, {
            str: "a non-empty string", int: "a whole number"}.get(kind, "a number")))
    return value


def node_path(path):
    """A path from a request: ~ is this node's home, a relative path is under it."""
    path = os.path.expanduser(path)
    return os.path.normpath(os.path.join(os.path.expanduser("~"), path))


def open_nofollow(path, flags=os.O_RDONLY):
    """A file descriptor for path, never through a symbolic link at its last component."""
    return os.open(path, flags | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))


def read_text(path, limit=None):
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            data = f.read() if limit is None else f.read(limit)
    except (IOError, OSError):
        return None
    return data.decode("utf-8", "replace")


def write_atomic(path, text, mode=0o600):
    """Writes path through a fresh temporary file renamed over it: a symbolic link planted at
    either name is replaced, never followed, and nothing outside the directory is touched."""
    temporary = path + ".tmp"
    try:
        os.unlink(temporary)
    except OSError as e:
        if e.errno != errno.ENOENT:
            raise
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as f:  # UTF-8 whatever the locale: Python 3.6 in the C locale writes ASCII only
        os.fchmod(f.fileno(), mode)
        f.write(text.encode("utf-8"))
    os.rename(temporary, path)


class UnsafePath(BadEntry):
    """A job directory that others could change under us, or a link where a directory belongs."""


def check_job_root(root):
    """Creates job_root (0700) when it is missing and refuses one that another user owns or
    could change, like OpenSSH refuses such a ~/.ssh: job_root itself must be ours and not
    writable by group or others, and no directory above it writable by everyone unless
    sticky (/tmp). (Directories above it may belong to others, as a project directory
    often does.)"""
    if not os.path.isdir(root):
        os.makedirs(root, 0o700, exist_ok=True)
    euid = os.geteuid()
    info = os.stat(root)
    if info.st_uid != euid:
        raise UnsafePath("job_root %s is owned by uid %d, not by you (uid %d); set queue.job_root to a "
                         "directory of your own" % (root, info.st_uid, euid))
    if info.st_mode & 0o022:
        raise UnsafePath("job_root %s is writable by others (mode %04o); run 'chmod go-w %s' on the node"
                         % (root, statmod.S_IMODE(info.st_mode), root))
    parent = os.path.dirname(os.path.realpath(root))
    while True:
        info = os.stat(parent)
        if info.st_mode & 0o002 and not info.st_mode & statmod.S_ISVTX:
            raise UnsafePath("%s (above job_root %s) is writable by everyone (mode %04o), so anyone could replace "
                             "your job directories; run 'chmod o-w %s' on the node or use another job_root"
                             % (parent, root, statmod.S_IMODE(info.st_mode), parent))
        if os.path.dirname(parent) == parent:
            return
        parent = os.path.dirname(parent)


def private_dirs(root, directory):
    """Makes each directory from job_root down to directory (0700) and checks every one is a
    real directory of ours that only we can change: never a symbolic link."""
    relative = os.path.relpath(directory, root)
    if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
        raise UnsafePath("%s is not under job_root %s" % (directory, root))
    path = root
    euid = os.geteuid()
    for part in relative.split(os.sep):
        path = os.path.join(path, part)
        try:
            os.mkdir(path, 0o700)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        info = os.lstat(path)
        if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
            raise UnsafePath("%s is not a directory (a link or a file is in its place); remove it" % path)
        if info.st_uid != euid:
            raise UnsafePath("%s is owned by uid %d, not by you; remove it" % (path, info.st_uid))
        if info.st_mode & 0o077:
            fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fchmod(fd, 0o700)
            finally:
                os.close(fd)


def ledger_dir(request):
    job_root = request.get("job_root")
    return os.path.join(node_path(job_root if isinstance(job_root, str) and job_root else DEFAULT_JOB_ROOT), LEDGER)


def read_ledger(ledger, token):
    """The ledger entry of a launch token ({"dir", "launched_at", "identity"?}), or None when
    this node never launched it."""
    if not ledger or "/" in token or token.startswith("."):
        return None
    text = read_text(os.path.join(ledger, token))
    if text is None:
        return None
    try:
        entry = json.loads(text)
    except ValueError:
        entry = None
    return entry if isinstance(entry, dict) else {}


def prune_ledger(ledger):
    """Forgets launches older than LEDGER_KEEP_S (their jobs were settled long ago)."""
    cutoff = time.time() - LEDGER_KEEP_S
    try:
        names = os.listdir(ledger)
    except OSError:
        return
    for name in names:
        path = os.path.join(ledger, name)
        try:
            if os.lstat(path).st_mtime < cutoff:
                os.unlink(path)
        except OSError:
            pass


def proc_stat(pid):
    """(state, pgid, sid, start_ticks) of a process, or None when there is no such process."""
    data = read_proc(pid, "stat")
    if not data:
        return None
    fields = data[data.rfind(")") + 2:].split()  # the name in (...) may hold spaces
    try:
        return fields[0], int(fields[2]), int(fields[3]), int(fields[19])
    except (IndexError, ValueError):
        return None


def alive(pid, start_ticks, boot_id):
    """True while pid is still the process recorded at launch: never a bare pid."""
    if boot_id != current_boot_id():
        return False
    stat = proc_stat(pid)
    return stat is not None and stat[0] != "Z" and stat[3] == start_ticks


def session_members(sid, start_ticks):
    """Live processes of the session a wrapper led (the job and its children), started no
    earlier than the wrapper. Linux does not reuse a pid while it names a live session, so a
    member of session sid is a process of that job."""
    members = []
    for name in os.listdir("/proc"):
        stat = proc_stat(int(name)) if name.isdigit() else None
        if stat is not None and stat[2] == sid and stat[0] != "Z" and stat[3] >= start_ticks:
            members.append(int(name))
    return members


def liveness(identity, session=True):
    """"wrapper" while the recorded wrapper runs, "session" while it is gone but processes of
    its session (the job) still run (asked only when session is true), None when nothing of
    the job is alive."""
    if not identity or identity.get("pid") is None or identity.get("start_ticks") is None:
        return None
    if identity.get("boot_id") != current_boot_id():
        return None
    pid, ticks = int(identity["pid"]), int(identity["start_ticks"])
    stat = proc_stat(pid)
    if stat is not None and stat[3] == ticks and stat[0] != "Z":
        return "wrapper"
    if stat is not None and stat[3] != ticks:
        return None  # the pid names another process: the wrapper's session is over
    return "session" if session and session_members(pid, ticks) else None


def identity_of(record):
    """A wrapper identity from a dict holding pid and start_ticks (a pid file, a ledger entry,
    a request), or None."""
    try:
        int(record["pid"]), int(record["start_ticks"])
        return record
    except (ValueError, TypeError, KeyError):
        return None


def read_identity(directory):
    """The wrapper identity the agent recorded at launch (the pid file), or None."""
    try:
        return identity_of(json.loads(read_text(os.path.join(directory, "pid")) or ""))
    except ValueError:
        return None


def read_exit(directory):
    """(exit code, finish time) from the exit file, or None while there is none."""
    path = os.path.join(directory, "exit")
    text = read_text(path)
    if text is None:
        return None
    parts = text.split()
    try:
        code = int(parts[0])
    except (IndexError, ValueError):
        code = None
    try:
        finished = float(parts[1])
    except (IndexError, ValueError):
        try:
            finished = os.stat(path).st_mtime
        except OSError:
            finished = None
    return code, finished


def same_dir(pid, directory):
    try:
        return os.path.realpath(os.readlink("/proc/%d/cwd" % pid)) == os.path.realpath(directory)
    except OSError:
        return False


def wrapper_args(pid):
    """The arguments after the marker of a wrapper process, or None when pid is no wrapper."""
    words = (read_proc(pid, "cmdline", binary=True) or b"").split(b"\0")
    if WRAPPER_MARK.encode() not in words:
        return None
    return [word.decode("utf-8", "replace") for word in words[words.index(WRAPPER_MARK.encode()) + 1:]]


def is_wrapper(pid, directory, start_ticks, token=None):
    """True when the process is the wrapper of this attempt: it carries the attempt's launch
    token, or its working directory or the directory's pid file names it."""
    args = wrapper_args(pid)
    if token is not None and args is not None and token in args[1:2]:
        return True
    if same_dir(pid, directory):
        return True
    recorded = read_identity(directory)
    return recorded is not None and recorded["pid"] == pid \
        and recorded["start_ticks"] == start_ticks


def find_wrapper(token, directory):
    """The identity of a live wrapper of this launch that left no pid file (the agent that
    started it died before writing one): found by its token, or (a wrapper started by an
    older agent) by its marker and working directory; or None."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        args = wrapper_args(pid)
        stat = proc_stat(pid) if args is not None else None
        if stat is None or stat[0] == "Z":
            continue
        if token in args[1:2] or (len(args) < 2 and directory is not None and same_dir(pid, directory)):
            return {"pid": pid, "pgid": stat[1], "start_ticks": stat[3],
                    "boot_id": current_boot_id(), "started_at": None}
    return None


def read_end(path, size):
    """The last size bytes of a file and whether it was longer; (None, False) if unreadable."""
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            f.seek(0, 2)
            length = f.tell()
            f.seek(max(0, length - size))
            return f.read(size), length > size
    except (IOError, OSError):
        return None, False


def tail(path, lines):
    """The last lines of a log, at most LOG_TAIL_BYTES bytes, or None when it is empty."""
    data, cut = read_end(path, LOG_TAIL_BYTES)
    chunk = (data or b"").splitlines()[1 if cut else 0:]  # a cut first line is dropped
    text = b"\n".join(chunk[-lines:] if lines > 0 else []).decode("utf-8", "replace")
    text = text.encode("utf-8")[-LOG_TAIL_BYTES:].decode("utf-8", "ignore")  # U+FFFD is 3 bytes
    return text or None


def last_lines(data, lines, cut):
    """The last lines of data (as tail -n counts them: a final line without a newline counts);
    when data is the cut end of a longer file, its partial first line is dropped."""
    if lines <= 0:
        return b""
    at = len(data) - 1 if data.endswith(b"\n") else len(data)
    for _ in range(lines):
        at = data.rfind(b"\n", 0, at)
        if at < 0:
            break
    if at >= 0:
        return data[at + 1:]
    first = data.find(b"\n")
    return data[first + 1:] if cut and 0 <= first < len(data) - 1 else data


def read_log(entry):
    """One read of a job's stdout.log or stderr.log: from a byte offset, or (no offset) the
    last lines before the size the file had when opened. Bytes travel as base64, so offsets
    stay exact whatever the job printed."""
    import base64
    stream = entry.get("stream", "stdout")
    if stream not in ("stdout", "stderr"):
        raise BadEntry("bad request entry: 'stream' must be stdout or stderr")
    directory = node_path(field(entry, "dir", str))
    limit = min(field(entry, "max_bytes", int, LOG_READ_LIMIT), LOG_READ_LIMIT)
    offset = None if entry.get("offset") is None else field(entry, "offset", int)
    lines = field(entry, "lines", int, 0)
    if limit < 0 or (offset or 0) < 0 or lines < 0:
        raise BadEntry("bad request entry: offset, lines and max_bytes cannot be negative")
    report = {"id": entry.get("id"), "stream": stream, "status": "ok", "size": 0,
              "offset": offset or 0, "next_offset": offset or 0, "data": "", "reason": None, "cut": False}
    try:
        f = os.fdopen(open_nofollow(os.path.join(directory, stream + ".log")), "rb")
    except (IOError, OSError) as e:
        if e.errno != errno.ENOENT:
            raise
        report["status"] = "missing"
        report["reason"] = "%s has no %s.log" % (directory, stream)
        return report
    with f:
        size = os.fstat(f.fileno()).st_size
        if offset is None:
            start = max(0, size - limit)
            f.seek(start)
            data = last_lines(f.read(size - start), lines, start > 0)
            report["offset"], report["next_offset"] = size - len(data), size
            # cut: the window of `limit` bytes did not hold the lines asked for whole (a line
            # longer than the window, or fewer lines than asked before the window's start)
            whole = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
            report["cut"] = start > 0 and (size - len(data) == start or whole < lines)
        else:
            f.seek(offset)
            data = f.read(limit)
            report["next_offset"] = offset + len(data)
    report["size"] = max(size, report["next_offset"])
    report["data"] = base64.b64encode(data).decode("ascii")
    return report


def progress(directory):
    """The last non-empty line of the job's status file, at most PROGRESS_LIMIT characters."""
    data, _ = read_end(os.path.join(directory, "status"), 4096)
    for line in reversed((data or b"").decode("utf-8", "replace").splitlines()):
        if line.strip():
            return line.strip()[:PROGRESS_LIMIT]
    return None


def collect_result(directory, report):
    path = os.path.join(directory, "result.json")
    try:
        if os.lstat(path).st_size > RESULT_LIMIT:
            report["result_error"] = "result.json is larger than %d bytes" % RESULT_LIMIT
            return
    except OSError:
        return  # no result.json
    try:
        report["result"] = json.loads(read_text(path) or "")
    except ValueError as e:
        report["result_error"] = "result.json is not valid JSON: %s" % e


def job_report(entry, status):
    report = {"id": entry.get("id"), "attempt": entry.get("attempt"), "status": status}
    for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at", "exit_code",
                "finished_at", "progress", "result", "result_error", "log_tail", "failure_log", "reason"):
        report[key] = None
    return report


def held_token(directory):
    token = read_text(os.path.join(directory, "token"))
    return None if token is None else token.strip()


def query_job(entry, tail_lines, ledger):
    """What became of one attempt. Its process is known from the identity the queue recorded
    (sent with the query), the pid file, the ledger, or a live wrapper carrying its token, in
    that order; a directory that is gone or holds another token does not make a launched job
    "missing": only an attempt this node never launched is."""
    report = job_report(entry, "missing")
    directory = node_path(field(entry, "dir", str))
    token = field(entry, "token", str)
    held = held_token(directory)
    ours = held == token
    launched = read_ledger(ledger, token)
    given = identity_of({key: entry.get(key) for key in ("pid", "pgid", "start_ticks", "boot_id")})
    recorded = read_identity(directory) if ours else None
    if given is not None and recorded is not None and (recorded["pid"], recorded["start_ticks"]) == (
            given["pid"], given["start_ticks"]):
        given = recorded  # the same process, with its start time
    identity = given or recorded or identity_of((launched or {}).get("identity") or {})
    if identity is None and (ours or launched is not None):
        # The agent that launched it died before recording the wrapper: find it by its
        # token, and record it so later probes and kills know it.
        identity = find_wrapper(token, directory if ours else None)
        if identity is not None and ours:
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
    if identity is None and not ours and launched is None:
        report["reason"] = ("no launch here (%s has no token)" % directory if held is None
                            else "%s holds another launch token" % directory)
        return report
    # Invariant: liveness first, then the exit file, re-read before calling a job gone. The
    # wrapper records the exit status before it ends, so a wrapper that is gone and left one
    # means the job ended (whatever it left running in the background); one that left none
    # was killed, and the job is alive while processes of its session are.
    state = liveness(identity, session=False)
    finished = None if state or not ours else read_exit(directory)
    if state is None and finished is None:
        state = liveness(identity)
        finished = None if state or not ours else read_exit(directory)
    for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
        report[key] = (identity or {}).get(key)
    if state is not None:
        report["status"] = "running"
        if state == "session":
            report["reason"] = "its wrapper is gone; the job's processes still run"
    elif finished is not None:
        report["status"] = "exited"
        report["exit_code"], report["finished_at"] = finished
    elif identity is None and launched is None:
        report["reason"] = "the launch in %s did not complete" % directory
        return report
    elif identity is None and ours and cut_short(directory, launched):
        # Recorded, but its agent died before the wrapper armed: the job never started, so
        # the attempt is to be launched (again), not lost.
        report["reason"] = "its launch was cut short before the job started"
        return report
    else:
        report["status"] = "vanished"
        report["reason"] = ("the wrapper is gone and left no exit status" if ours
                            else "its directory %s was removed or replaced while it ran; its exit status is lost"
                            % directory if identity is not None
                            else "its launch was interrupted and its directory is gone")
    if not ours:
        return report
    report["progress"] = progress(directory)
    collect_result(directory, report)
    if report["status"] == "vanished" or report["exit_code"] != 0:
        report["log_tail"] = (tail(os.path.join(directory, "stderr.log"), tail_lines)
                              or tail(os.path.join(directory, "stdout.log"), tail_lines))
    if report["status"] == "exited" and report["exit_code"] != 0:
        report["failure_log"] = failure_log(directory)
    return report


def failure_log(directory):
    """The last FAILURE_SCAN_BYTES of stderr.log, then of stdout.log, as text (None when both are
    empty): where the queue looks for out-of-memory messages to classify the failure."""
    parts = []
    for name in ("stderr.log", "stdout.log"):
        data, _ = read_end(os.path.join(directory, name), FAILURE_SCAN_BYTES)
        if data:
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts) or None
