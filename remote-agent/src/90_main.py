# --- requests and replies: one JSON line in, one out (docs/agent-protocol.md) -----------------

def sessions(reply):
    """sid and pgid of every GPU process, so GPU memory can be charged to jobs."""
    table = {}
    for gpu in reply["gpus"]:
        for process in gpu["processes"]:
            stat = proc_stat(process["pid"])
            if stat is not None:
                table[str(process["pid"])] = {"sid": stat[2], "pgid": stat[1]}
    return table


def each(request, name, handle):
    """Applies handle to every entry of a request list; a bad entry fails alone."""
    results = []
    entries = request.get(name)
    for entry in entries if isinstance(entries, list) else []:
        entry = entry if isinstance(entry, dict) else {}
        try:
            results.append(handle(entry))
        except (BadEntry, OSError) as e:
            failed = {"id": entry.get("id"), "attempt": entry.get("attempt"),
                      "status": "failed" if name == "launch" else "error"}
            message = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            where = getattr(e, "filename", None)
            failed["error"] = "%s: %s" % (where, message) if where else message
            results.append(failed)
    return results


def keep_code():
    """Answers "keep_code": true. An agent started without keeping its compiled code (the
    bootstrap's "read" word: its command line was not yet known to be valid) that had to
    compile the script writes that code into the node's cache now, as a keeping start does; one
    that ran kept code, or was started some other way, has nothing to write."""
    later, keep = globals().get("_nvidb_later"), globals().get("_nvidb_keep")
    if later is not None and keep is not None:
        globals()["_nvidb_later"] = None
        keep(*later)


# The longest one "await_exit" request may hold its agent, and how often it looks.
AWAIT_EXIT_LIMIT_MS = 10000
AWAIT_EXIT_STEP_S = 0.005


def await_exit(entry):
    """Answers {"await_exit": {"dirs": [...], "ms": N}}: waits until one of the attempt
    directories has its exit status (or is gone), looking every 5 ms for at most N ms (10 s at
    most), and names those that have. Nothing else is done or changed: a client waiting for
    its jobs learns that one ended at once instead of at its next tick, then ticks."""
    reply = {"schema_version": SCHEMA_VERSION, "error": None, "exited": []}
    dirs, limit = entry.get("dirs"), entry.get("ms")
    if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs) \
            or not isinstance(limit, int) or isinstance(limit, bool):
        reply["error"] = "bad request: 'await_exit' needs 'dirs' (a list of paths) and 'ms' (an integer)"
        return reply
    paths = [(d, node_path(d)) for d in dirs]
    deadline = time.monotonic() + max(0, min(limit, AWAIT_EXIT_LIMIT_MS)) / 1000.0
    while True:
        reply["exited"] = [d for d, path in paths
                           if os.path.exists(os.path.join(path, "exit")) or not os.path.isdir(path)]
        left = deadline - time.monotonic()
        if reply["exited"] or left <= 0:
            return reply
        time.sleep(min(AWAIT_EXIT_STEP_S, left))


def empty_reply():
    return {"schema_version": SCHEMA_VERSION, "source": "none", "error": None, "node": None,
            "driver_version": None, "nvml_version": None, "cuda_version": None, "gpus": [],
            "jobs": [], "sessions": {}, "launches": [], "kills": [], "logs": [], "removed_dirs": []}


class Agent(object):
    """Answers requests; NVML is initialised once and kept for the agent's lifetime."""

    def __init__(self):
        self.nvml = None
        self.cpu = CpuMeter()  # kept between requests: a resident agent measures from the last one
        self.children = []  # launched wrappers not yet reaped
        # Files the agent and the wrapper write are private (env values are in run.sh);
        # the job itself gets the umask the agent was started with.
        self.job_umask = os.umask(0o077)

    def reply(self, request):
        """Kills, then launches, then the snapshot, then the job queries (which so see
        this request's launches and kills), then the log reads. An "await_exit" request is
        answered alone (see await_exit)."""
        self.children = [child for child in self.children if child.poll() is None]
        if request.get("keep_code") is True:
            keep_code()
        if isinstance(request.get("await_exit"), dict):
            return await_exit(request["await_exit"])
        slurm = request.get("slurm")
        if isinstance(slurm, dict) and isinstance(slurm.get("partition"), str):
            return self.slurm_reply(request, slurm)
        kills = each(request, "kill", kill_job)
        launches = each(request, "launch",
                        lambda entry: launch_job(entry, request, self.job_umask, self.children, self))
        if any(launch.get("status") == "started" for launch in launches):
            prune_ledger(ledger_dir(request))
        if request.get("snapshot", True) is False \
                and all(launch.get("status") in ("started", "adopted") for launch in launches):
            # A launch round carries the demand left once its jobs are placed: a job that started
            # here stops counting as waiting now, not at this queue's next probe. When one did not
            # start (lost its card, failed) the probe's demand stays: never less than what waits.
            try:
                publish_demand(request)
            except (BadEntry, OSError):
                pass  # the probe that follows says what is wrong with the claims directory
        reply = empty_reply()
        reply["node"] = node_info(request)
        if request.get("snapshot", True) is not False:
            self.snapshot(reply)
        lines = request.get("log_tail_lines", 20)
        lines = lines if isinstance(lines, int) and not isinstance(lines, bool) else 20
        ledger = ledger_dir(request)
        reply["jobs"] = each(request, "jobs", lambda entry: query_job(entry, lines, ledger))
        reply["logs"] = each(request, "logs", read_log)
        reply["sessions"] = sessions(reply)
        if request.get("snapshot", True) is not False:
            reply["claims"] = claims_report(request, reply)
        reply["launches"], reply["kills"] = launches, kills
        reply["removed_dirs"] = each(request, "remove_dirs", lambda entry: remove_job_dir(entry, request))
        return reply

    def slurm_reply(self, request, slurm):
        """The same request to a Slurm node: kills are scancel, launches sbatch, job queries
        squeue/sacct and the attempt directory; the snapshot is the partition's state (the login
        node's own GPUs are not the queue's)."""
        kills = each(request, "kill", lambda entry: slurm_kill(entry, SlurmJobs(slurm)))
        launches = each(request, "launch", lambda entry: slurm_launch(entry, request, slurm, self.job_umask))
        reply = empty_reply()
        reply["node"] = node_info(request)
        if request.get("snapshot", True) is not False:
            reply["slurm"] = slurm_partition(slurm)
        lines = request.get("log_tail_lines", 20)
        lines = lines if isinstance(lines, int) and not isinstance(lines, bool) else 20
        ledger = ledger_dir(request)
        jobs = SlurmJobs(slurm)
        reply["jobs"] = each(request, "jobs", lambda entry: slurm_query(entry, lines, ledger, jobs))
        reply["logs"] = each(request, "logs", read_log)
        reply["launches"], reply["kills"] = launches, kills
        reply["removed_dirs"] = each(request, "remove_dirs", lambda entry: remove_job_dir(entry, request))
        return reply

    def snapshot(self, reply):
        if self.nvml is None:
            # Retried on every request while it fails: the driver may come back.
            self.nvml, nvml_error = load_nvml()
        if self.nvml is not None:
            nvml_reply(self.nvml, reply)
            describe_processes(reply, self.cpu, PcieSampler(self.nvml, reply["gpus"]).run)
            return
        try:
            notes = smi_reply(reply)
            reply["error"] = "; ".join([nvml_error] + notes)
            describe_processes(reply, self.cpu)
        except RuntimeError as e:
            if nvml_error.startswith("cannot load"):
                nvml_error = "NVIDIA driver not found: " + nvml_error
                reply["error"] = "%s and %s" % (nvml_error, e)
            else:
                reply["error"] = "%s; %s" % (nvml_error, e)

    def answer(self, line):
        request = {}
        if line.strip():
            try:
                request = json.loads(line)
            except ValueError as e:
                sys.stderr.write("nvidb agent: ignoring invalid request: %s\n" % e)
            if not isinstance(request, dict):
                request = {}
        try:
            reply = self.reply(request)
        except Exception as e:  # the protocol must survive an agent bug
            reply = empty_reply()
            reply["error"] = "agent internal error: %s: %s" % (type(e).__name__, e)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def main(argv):
    stdin = sys.stdin.buffer  # the bootstrap already read the script from this buffer
    agent = Agent()
    if "--serve" in argv:
        for line in iter(stdin.readline, b""):
            agent.answer(line.decode("utf-8", "replace"))
    else:
        agent.answer(stdin.readline().decode("utf-8", "replace"))
    if agent.nvml is not None:
        try:
            agent.nvml.call("nvmlShutdown")
        except NvmlError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
