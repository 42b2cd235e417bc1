# --- Slurm: a node whose jobs Slurm places (docs/agent-protocol.md, "Slurm") -------------------

SLURM_PREFIX = "nvidb-"  # a launch's Slurm job name is this and its token: found again by name
SLURM_TIMEOUT_S = 30
SLURM_SQUEUE_FORMAT = "%i|%T|%r|%j"  # id, state, reason, name; Java parses the line (SlurmJob)
SLURM_SACCT_FORMAT = "JobIDRaw,State,ExitCode,Reason"
SLURM_ACTIVE = ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED",
                "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED")
# The batch script: run.sh in the attempt directory (Slurm's --chdir), its exit status recorded
# where the queue reads it; a job cancelled before Slurm started it does not start.
SLURM_BATCH = """#!/bin/bash
# nvidb batch wrapper: generated
umask %s
[ -e cancel ] && exit 143
bash run.sh </dev/null
code=$?
printf '%%s %%s\\n' "$code" "$(date +%%s)" > exit.tmp && mv -f exit.tmp exit
exit "$code"
"""


class SlurmError(BadEntry):
    pass


def slurm_run(slurm, name, *args):
    """(exit status, stdout, stderr) of one of Slurm's commands; a missing one is 127."""
    import subprocess
    folder = slurm.get("bin")
    command = [os.path.join(node_path(folder), name) if folder else name] + list(args)
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, close_fds=True)
    except OSError as e:
        return 127, "", "%s: %s" % (command[0], e.strerror or e)
    try:
        out, err = child.communicate(timeout=SLURM_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return 124, "", "%s did not answer in %d s" % (name, SLURM_TIMEOUT_S)
    return child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def slurm_fail(name, code, err):
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    raise SlurmError("%s failed (status %d)%s" % (name, code, ": " + lines[-1] if lines else ""))


class SlurmJobs(object):
    """What Slurm knows of this user's jobs, asked once per request: one squeue for every job it
    still holds (ended ones too, for MinJobAge), one sacct for those it does not (where there is
    accounting)."""

    def __init__(self, slurm):
        self.slurm = slurm
        self.by_id, self.by_name, self.error = None, {}, None

    def load(self):
        if self.by_id is not None or self.error is not None:
            return
        code, out, err = slurm_run(self.slurm, "squeue", "-h", "--me", "-t", "all", "-o", SLURM_SQUEUE_FORMAT)
        if code != 0:
            try:
                slurm_fail("squeue", code, err)
            except SlurmError as e:
                self.error = str(e)
            return
        self.by_id = {}
        for line in out.splitlines():
            fields = line.strip().split("|")
            if len(fields) >= 4 and fields[0].isdigit():
                self.by_id[fields[0]] = line.strip()
                self.by_name.setdefault(fields[3], []).append(int(fields[0]))

    def squeue(self, job_id):
        self.load()
        if self.error is not None:
            raise SlurmError(self.error)
        return self.by_id.get(str(job_id))

    def find(self, token):
        """The Slurm job id whose name carries the token, or None: squeue, then sacct."""
        self.load()
        if self.error is not None:
            raise SlurmError(self.error)
        ids = self.by_name.get(SLURM_PREFIX + token)
        if ids:
            return min(ids)
        code, out, _ = slurm_run(self.slurm, "sacct", "-n", "-X", "-P", "--name", SLURM_PREFIX + token,
                                 "-S", "now-30days", "-o", "JobIDRaw")
        ids = [int(line.strip()) for line in out.splitlines() if code == 0 and line.strip().isdigit()]
        return min(ids) if ids else None

    def sacct(self, job_id):
        code, out, _ = slurm_run(self.slurm, "sacct", "-n", "-X", "-P", "-j", str(job_id), "-o", SLURM_SACCT_FORMAT)
        for line in out.splitlines() if code == 0 else []:
            if line.split("|")[0].strip() == str(job_id):
                return line.strip()
        return None


def slurm_submit(entry, slurm, directory, token):
    """sbatch for one attempt; returns Slurm's job id."""
    args = ["--parsable", "--no-requeue", "--job-name=" + SLURM_PREFIX + token,
            "--comment=nvidb job %s attempt %s" % (entry.get("id"), entry.get("attempt")),
            "--partition=" + slurm["partition"], "--chdir=" + directory,
            "--output=" + os.path.join(directory, "stdout.log"),
            "--error=" + os.path.join(directory, "stderr.log")]
    for key, option in (("account", "--account="), ("qos", "--qos=")):
        if slurm.get(key):
            args.append(option + slurm[key])
    gpus = entry.get("gpus") or 0
    if isinstance(gpus, int) and gpus > 0:
        args.append("--gres=gpu:%d" % gpus)
    timeout = entry.get("timeout_s")
    if isinstance(timeout, int) and timeout > 0:
        args.append("--time=%d" % max(1, (timeout + 59) // 60))
    elif slurm.get("time_limit"):
        args.append("--time=" + slurm["time_limit"])
    args.append(os.path.join(directory, "slurm.sh"))
    code, out, err = slurm_run(slurm, "sbatch", *args)
    job_id = out.strip().split(";")[0]
    if code != 0 or not job_id.isdigit():
        slurm_fail("sbatch", code, err or out)
    return int(job_id)


def slurm_launch(entry, request, slurm, job_umask):
    """Submits one attempt to Slurm, at most once ever: under the directory's lock, the ledger and
    then Slurm itself (a job named by the token) are asked first, so a submit whose agent died
    before recording Slurm's answer is found and adopted, never submitted again."""
    report = {"id": entry.get("id"), "attempt": entry.get("attempt"), "status": "failed", "error": None}
    directory, token, script, ledger, root = launch_paths(entry, request)
    private_dirs(root, directory)
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        held = held_token(directory)
        if held is not None and held != token:
            report["error"] = "%s already holds another launch token" % directory
            return report
        launched = read_ledger(ledger, token) or {}
        job_id = launched.get("slurm_job_id") or SlurmJobs(slurm).find(token)
        if job_id is not None:
            report["status"] = "adopted"
        else:
            write_atomic(os.path.join(directory, "token"), token + "\n")
            write_atomic(os.path.join(directory, "run.sh"), script, 0o700)
            write_atomic(os.path.join(directory, "slurm.sh"), SLURM_BATCH % ("%04o" % job_umask), 0o700)
            private_dirs(root, os.path.join(directory, "work"))
            job_id = slurm_submit(entry, slurm, directory, token)
            report["status"] = "started"
        if not launched.get("slurm_job_id"):
            write_atomic(os.path.join(ledger, token), json.dumps(
                {"dir": directory, "launched_at": launched.get("launched_at") or time.time(),
                 "slurm_job_id": job_id}) + "\n")
        report.update({"pid": job_id, "pgid": job_id, "start_ticks": 0, "boot_id": "slurm",
                       "started_at": launched.get("launched_at") or time.time()})
        return report
    finally:
        os.close(lock)


def slurm_query(entry, tail_lines, ledger, jobs):
    """What Slurm and the attempt directory say of one attempt; the Java side decides what it means
    (SlurmStates). "missing" only when neither the ledger nor Slurm knows a job of its token."""
    report = job_report(entry, "missing")
    directory = node_path(field(entry, "dir", str))
    token = field(entry, "token", str)
    ours = held_token(directory) == token
    launched = read_ledger(ledger, token) or {}
    job_id = entry.get("pid") if entry.get("boot_id") == "slurm" else None
    job_id = job_id or launched.get("slurm_job_id") or jobs.find(token)
    if job_id is None:
        report["reason"] = "Slurm has no job named %s%s" % (SLURM_PREFIX, token)
        return report
    line = jobs.squeue(job_id)
    report.update({"status": "slurm", "slurm_job_id": job_id, "squeue": line,
                   "sacct": None if line is not None else jobs.sacct(job_id),
                   "started_at": launched.get("launched_at")})
    if not ours:
        return report
    finished = read_exit(directory)
    if finished is not None:
        report["exit_code"], report["finished_at"] = finished
    report["progress"] = progress(directory)
    collect_result(directory, report)
    state = (line or "").split("|")[1:2]
    if not (state and state[0] in SLURM_ACTIVE) and (finished is None or finished[0] != 0):
        report["log_tail"] = (tail(os.path.join(directory, "stderr.log"), tail_lines)
                              or tail(os.path.join(directory, "stdout.log"), tail_lines))
        report["failure_log"] = failure_log(directory)
    return report


def slurm_kill(entry, jobs):
    """scancel of an attempt's Slurm job (the "pid" the queue recorded), only when Slurm holds it
    under this attempt's token; a job not yet started finds "cancel" and does not start."""
    report = {"id": entry.get("id"), "status": "gone", "reason": None}
    job_id = field(entry, "pid", int)
    token = entry.get("token")
    line = jobs.squeue(job_id)
    if line is None or line.split("|")[1] not in SLURM_ACTIVE:
        report["reason"] = "Slurm job %d is no longer running" % job_id
        return report
    if isinstance(token, str) and line.split("|")[3] != SLURM_PREFIX + token:
        report["status"] = "not_ours"
        report["reason"] = "Slurm job %d belongs to another launch" % job_id
        return report
    directory = entry.get("dir")
    if isinstance(directory, str) and directory:
        try:
            write_atomic(os.path.join(node_path(directory), "cancel"), "")
        except OSError:
            pass  # scancel stops it either way
    code, _, err = slurm_run(jobs.slurm, "scancel", str(job_id))
    if code != 0:
        slurm_fail("scancel", code, err)
    report["status"] = "signalled"
    report["reason"] = "scancel %d" % job_id
    return report


def slurm_partition(slurm):
    """The partition's state for queue nodes: sinfo's lines (partition, availability, nodes
    allocated/idle/other/total, CPUs the same, GRES), or the error."""
    code, out, err = slurm_run(slurm, "sinfo", "-h", "-p", slurm["partition"], "-o", "%R|%a|%F|%C|%G")  # SlurmPartition.SINFO_FORMAT
    if code != 0:
        return {"lines": [], "error": "sinfo failed (status %d): %s" % (code, err.strip()[-300:])}
    return {"lines": [line.strip() for line in out.splitlines() if line.strip()], "error": None}
