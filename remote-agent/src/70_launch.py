# --- job actions: launch, kill, removal of attempt directories -------------------------------

def launch_paths(entry, request):
    """A launch entry's attempt directory, token and script, with the ledger and job root it goes
    under: the token checked, the job root trusted and the ledger folder made."""
    directory = node_path(field(entry, "dir", str))
    token, script = field(entry, "token", str), field(entry, "script", str)
    if "/" in token or token.startswith(".") or "\0" in token:
        raise BadEntry("bad request entry: 'token' must not hold '/' or start with '.'")
    ledger = ledger_dir(request)
    root = os.path.dirname(ledger)
    check_job_root(root)
    private_dirs(root, ledger)
    return directory, token, script, ledger, root


def launch_job(entry, request, job_umask, children, agent):
    """Starts one attempt, at most once ever: the ledger and the directory are checked under
    a lock on the directory, and a launch the node already knows is adopted, never repeated.
    A new start that names GPUs first takes its claim (take_claim); one that no longer fits is
    answered "lost" and nothing is written."""
    report = job_report(entry, "failed")
    del report["exit_code"], report["finished_at"], report["progress"], report["result"]
    del report["result_error"], report["log_tail"], report["failure_log"], report["reason"]
    report["error"] = None
    directory, token, script, ledger, root = launch_paths(entry, request)
    launched = read_ledger(ledger, token)
    if launched is not None and not os.path.isdir(directory):
        # Launched here before, and its directory is gone since: adopt it, recreate nothing.
        identity = identity_of(launched.get("identity") or {}) or find_wrapper(token, None) or {}
        report["status"] = "adopted"
        for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
            report[key] = identity.get(key)
        return report
    private_dirs(root, directory)
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two agents launching the same attempt at once
        held = held_token(directory)
        if held is not None and held != token:
            report["error"] = "%s already holds another launch token" % directory
            return report
        launched = read_ledger(ledger, token)
        identity = None
        if held is not None or launched is not None:
            identity = (read_identity(directory) if held else None) \
                or identity_of((launched or {}).get("identity") or {}) \
                or find_wrapper(token, directory if held else None)
            if identity is None and cut_short(directory, launched):
                # The agent that launched it died before its wrapper armed: the job never ran.
                # Past the moment a wrapper it forked could still be on its way to exec (and
                # invisible), start it now; the directory lock keeps other agents out meanwhile.
                time.sleep(max(0.0, launched.get("launched_at", 0) + CUT_SHORT_S - time.time()))
                identity = find_wrapper(token, directory)
            elif identity is None and (launched is not None or read_exit(directory) is not None):
                identity = {}  # it was started once and has ended
        if identity is not None:
            report["status"] = "adopted"
        else:
            claim, lost = take_claim(entry, request, agent)
            if lost is not None:
                report["status"], report["error"] = "lost", "lost the card: " + lost
                return report
            try:
                record = {"dir": directory, "launched_at": time.time()}
                write_atomic(os.path.join(ledger, token), json.dumps(record) + "\n")
                write_atomic(os.path.join(directory, "token"), token + "\n")
                write_atomic(os.path.join(directory, "run.sh"), script, 0o700)
                write_atomic(os.path.join(directory, "exit.slot"), " " * (EXIT_SLOT_BYTES - 1) + "\n")
                private_dirs(root, os.path.join(directory, "work"))
                identity = start_wrapper(directory, job_umask, children, token)
            except BaseException:
                if claim is not None and not os.path.exists(os.path.join(directory, "armed")):
                    remove_claim(claim)
                raise
            bind_claim(claim, identity)
            write_atomic(os.path.join(directory, "pid"), json.dumps(identity) + "\n")
            record["identity"] = identity
            write_atomic(os.path.join(ledger, token), json.dumps(record) + "\n")
            report["status"] = "started"
        for key in ("pid", "pgid", "start_ticks", "boot_id", "started_at"):
            report[key] = identity.get(key)
        return report
    finally:
        os.close(lock)


def cut_short(directory, launched):
    """Whether a launch this node recorded never got as far as running its job: no wrapper
    armed (the job starts only after "armed"), no exit status, no pid file. Called when no
    wrapper of the launch lives."""
    return launched is not None and read_exit(directory) is None \
        and not os.path.exists(os.path.join(directory, "armed")) \
        and not os.path.exists(os.path.join(directory, "pid"))


def start_wrapper(directory, job_umask, children, token):
    """Starts the wrapper detached (new session, stdio on /dev/null), waits until it has
    armed its TERM trap (so a kill right after the launch cannot kill it before it records
    a status), and returns its identity."""
    import subprocess
    child = subprocess.Popen(["bash", "-c", WRAPPER, WRAPPER_MARK, "%04o" % job_umask, token],
                             cwd=directory, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             close_fds=True, start_new_session=True)
    children.append(child)  # reaped later; until then /proc/PID/stat stays readable
    stat = proc_stat(child.pid)
    if stat is None:
        raise OSError(0, "the wrapper process could not be identified")
    deadline = time.time() + ARM_WAIT_S
    while not os.path.exists(os.path.join(directory, "armed")) and child.poll() is None \
            and time.time() < deadline:
        time.sleep(0.002)
    return {"pid": child.pid, "pgid": stat[1], "start_ticks": stat[3],
            "boot_id": current_boot_id(), "started_at": time.time()}


def kill_job(entry):
    """Stops one job: TERM to its process group (or, when its wrapper is gone, to every group
    of the wrapper's session still alive), then KILL after the grace period. Only a process
    whose identity matches what was recorded at launch is ever signalled."""
    report = {"id": entry.get("id"), "status": "gone", "reason": None}
    directory = node_path(field(entry, "dir", str))
    pid, ticks = field(entry, "pid", int), field(entry, "start_ticks", int)
    boot_id = entry.get("boot_id")
    grace = field(entry, "grace_s", (int, float), 10)
    stat = proc_stat(pid)
    if boot_id != current_boot_id():
        report["reason"] = "the node restarted since the launch"
        return report
    if stat is not None and stat[3] != ticks:
        report["status"] = "not_ours"
        report["reason"] = "process %d is not the wrapper of %s" % (pid, directory)
        return report
    token = entry.get("token") if isinstance(entry.get("token"), str) else None
    if stat is not None and stat[0] != "Z" and not is_wrapper(pid, directory, ticks, token):
        report["status"] = "not_ours"
        report["reason"] = "process %d is not the wrapper of %s" % (pid, directory)
        return report
    wrapper_alive = stat is not None and stat[0] != "Z"
    if not wrapper_alive and not session_members(pid, ticks):
        report["reason"] = "no process %d" % pid
        return report
    try:
        write_atomic(os.path.join(directory, "cancel"), "\n")
    except OSError:
        pass  # the directory is gone: the job has started long ago, its group is signalled
    for group in job_groups(directory, pid, ticks):
        try:
            os.killpg(group, signal.SIGTERM)
        except OSError as e:
            if e.errno != errno.ESRCH:
                report["reason"] = "cannot signal the job: %s" % e.strerror
                report["status"] = "not_ours"
                return report
    detach(kill_after_grace, directory, pid, ticks, boot_id, grace)
    report["status"] = "signalled"
    if not wrapper_alive:
        report["reason"] = "its wrapper was gone; the processes left in its session were signalled"
    return report


def job_groups(directory, wrapper, ticks):
    """The job's process groups: the one it wrote to jobpgid, if that group lies in the
    wrapper's session; without it (the job has not started, or its directory is gone) every
    group of the session's live members but the wrapper's own."""
    try:
        with os.fdopen(open_nofollow(os.path.join(directory, "jobpgid")), "r") as f:
            pgid = int(f.read().strip())
    except (IOError, OSError, ValueError):
        pgid = None
    if pgid is not None:
        members = group_members(pgid)
        if members and all((proc_stat(member) or (None, None, None))[2] == wrapper for member in members):
            return [pgid]
    groups = set()
    for member in session_members(wrapper, ticks):
        stat = proc_stat(member)
        if stat is not None and stat[1] != wrapper:
            groups.add(stat[1])
    return sorted(groups)


def group_members(pgid):
    members = []
    for name in os.listdir("/proc"):
        stat = proc_stat(int(name)) if name.isdigit() else None
        if stat is not None and stat[1] == pgid:
            members.append(int(name))
    return members


def job_gone(pid, ticks, boot_id):
    """True when neither the wrapper nor any process of its session is alive."""
    return liveness({"pid": pid, "start_ticks": ticks, "boot_id": boot_id}) is None


def wait_gone(pid, ticks, boot_id, seconds, whole_session=False):
    deadline = time.time() + seconds
    while alive(pid, ticks, boot_id) or (whole_session and not job_gone(pid, ticks, boot_id)):
        if time.time() >= deadline:
            return False
        time.sleep(0.05)
    return True


def kill_after_grace(directory, pid, ticks, boot_id, grace):
    """Runs detached: KILLs the job's process groups if the job outlives the grace period.
    Only the job's groups: the wrapper is left to record the exit status (and is KILLed
    itself only if it has not ended 5 s later)."""
    if wait_gone(pid, ticks, boot_id, grace, whole_session=True):
        return
    for group in job_groups(directory, pid, ticks):
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    if not wait_gone(pid, ticks, boot_id, KILL_SETTLE_S) and alive(pid, ticks, boot_id):
        os.kill(pid, signal.SIGKILL)


def detach(function, *args):
    """Runs function(*args) in a grandchild in its own session, holding none of our pipes,
    so the reply (and the SSH channel) does not wait for it."""
    sys.stdout.flush()
    sys.stderr.flush()
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    try:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.closerange(3, 4096)
            function(*args)
    except BaseException:
        pass
    finally:
        os._exit(0)


def remove_job_dir(entry, request):
    """Removes one finished job's directory, <job_root>/<queue>/<job> with all its attempts
    (retention: the queue asks only for jobs that ended long ago). Only a real directory of
    ours exactly two levels under job_root, reached without following a symbolic link, and
    never while a process of one of its attempts is alive or when it holds an attempt newer
    than the request's "attempt" (the job was requeued and launched again): "running" then,
    and nothing is removed. "absent" when it is already gone."""
    import shutil
    job_root = request.get("job_root")
    root = node_path(job_root if isinstance(job_root, str) and job_root else DEFAULT_JOB_ROOT)
    directory = node_path(field(entry, "dir", str))
    result = {"id": entry.get("id"), "dir": entry.get("dir")}
    relative = os.path.relpath(directory, root)
    parts = relative.split(os.sep)
    if len(parts) != 2 or any(part in (os.curdir, os.pardir) or part.startswith(".") for part in parts):
        raise UnsafePath("%s is not a job directory <job_root>/<queue>/<job> under %s" % (directory, root))
    euid = os.geteuid()
    path = root
    for part in [""] + parts:
        path = os.path.join(path, part) if part else path
        try:
            info = os.lstat(path)
        except OSError as e:
            if e.errno == errno.ENOENT:
                result["status"] = "absent"
                return result
            raise
        if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
            raise UnsafePath("%s is not a directory (a link or a file is in its place); nothing removed" % path)
        if info.st_uid != euid:
            raise UnsafePath("%s is owned by uid %d, not by you; nothing removed" % (path, info.st_uid))
    last = entry.get("attempt")
    for attempt in os.listdir(directory):
        if isinstance(last, int) and not isinstance(last, bool) and attempt.isdigit() and int(attempt) > last:
            result["status"] = "running"  # requeued and launched again since the queue asked
            return result
        attempt_dir = os.path.join(directory, attempt)
        if os.path.isdir(attempt_dir) and not os.path.islink(attempt_dir) \
                and liveness(read_identity(attempt_dir)) is not None:
            result["status"] = "running"
            return result
    shutil.rmtree(directory)
    result["status"] = "removed"
    return result
