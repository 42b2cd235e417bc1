# ---------------------------------------------------------------------------------------------
# Claims: one node's GPUs shared by several queues (docs/sharing.md). A launch that names GPUs
# takes the claims directory's lock, re-reads the cards' memory and every live claim, and goes
# ahead only when the job still fits; it then leaves a claim file there until its wrapper ends.
# Every probe reports the live claims, so other queues charge them as foreign memory.

# The claims directory when the request names none: NVIDB_CLAIMS_DIR of the node's environment, else
# /tmp/nvidb-claims.
DEFAULT_CLAIMS_DIR = os.environ.get("NVIDB_CLAIMS_DIR") or "/tmp/nvidb-claims"
CLAIM_PREFIX = "claim-"
CLAIM_MAX_BYTES = 4096
# A claim written before its wrapper started lives for CLAIM_SURE_S whatever happens (a launch
# records its wrapper within ARM_WAIT_S), then while the agent that wrote it runs, and at most
# CLAIM_PENDING_S without a wrapper.
CLAIM_SURE_S = 30
CLAIM_PENDING_S = 120
CLAIM_LOCK_S = 10  # the longest a launch waits for another agent's claim check
DEMAND_PREFIX = "demand-"
# A queue's published demand counts while its probes refresh it: a queue whose ticks stopped
# (its user ran no command, no daemon) no longer holds a card back for its jobs.
DEMAND_FRESH_S = 120
POLICY_FILE = "policy.yml"
POLICY_MAX_BYTES = 65536


class ClaimsRefused(BadEntry):
    """A claims directory that could let another user forge or remove claims."""


def claims_settings(request):
    """(directory, queue id, queue name) from the request's "claims" entry; the default
    directory when the request names none."""
    settings = request.get("claims")
    settings = settings if isinstance(settings, dict) else {}
    directory = settings.get("dir")
    directory = node_path(directory) if isinstance(directory, str) and directory else DEFAULT_CLAIMS_DIR
    queue, name = settings.get("queue"), settings.get("name")
    return directory, queue if isinstance(queue, str) else None, name if isinstance(name, str) else None


def check_claims_dir(directory, create):
    """Makes the claims directory (mode 1777) when create is set and it is missing, then checks
    it: a real directory (never a link), sticky when others may write it (so no user can remove
    or rename another's claim), and owned by root, by this user or, when it is the sticky
    world-writable folder the first user of the node made, by that user. Returns whether it
    exists; raises ClaimsRefused for one that is unsafe."""
    try:
        info = os.lstat(directory)
    except OSError as e:
        if e.errno != errno.ENOENT:
            raise
        if not create:
            return False
        try:
            os.mkdir(directory, 0o700)
            fd = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fchmod(fd, 0o1777)
            finally:
                os.close(fd)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        info = os.lstat(directory)
    mode = statmod.S_IMODE(info.st_mode)
    if statmod.S_ISLNK(info.st_mode) or not statmod.S_ISDIR(info.st_mode):
        raise ClaimsRefused("claims_dir %s is not a directory (a link or a file is in its place); remove it "
                            "or set claims_dir to another path" % directory)
    if mode & 0o022 and not mode & statmod.S_ISVTX:
        raise ClaimsRefused("claims_dir %s is writable by others but not sticky (mode %04o), so anyone could "
                            "remove your claims; run 'chmod +t %s' on the node" % (directory, mode, directory))
    euid = os.geteuid()
    shared = mode & 0o1002 == 0o1002
    if info.st_uid not in (0, euid) and not shared:
        raise ClaimsRefused("claims_dir %s is owned by uid %d and not a sticky folder everyone may write "
                            "(mode %04o); ask its owner to run 'chmod 1777 %s' or set claims_dir to another path"
                            % (directory, info.st_uid, mode, directory))
    return True


def claim_name(uid, queue, job, attempt):
    return "%s%d-%s-%d-%d.json" % (CLAIM_PREFIX, uid, queue, job, attempt)


def read_owned(directory, name, valid, what):
    """The JSON entry in one file of the claims directory, checked: a regular file (never
    followed through a link) of at most CLAIM_MAX_BYTES, valid, and owned by the uid written
    inside. Returns (entry, None) or (None, warning)."""
    path = os.path.join(directory, name)
    try:
        fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None, None  # removed meanwhile
        if e.errno == errno.ELOOP:
            return None, "ignored %s %s: a symbolic link" % (what, path)
        return None, "ignored %s %s: %s" % (what, path, e.strerror)
    try:
        info = os.fstat(fd)
        if not statmod.S_ISREG(info.st_mode):
            return None, "ignored %s %s: not a regular file" % (what, path)
        if info.st_size > CLAIM_MAX_BYTES:
            return None, "ignored %s %s: %d bytes, more than a %s holds" % (what, path, info.st_size, what)
        data = os.read(fd, CLAIM_MAX_BYTES + 1)
    finally:
        os.close(fd)
    try:
        entry = json.loads(data.decode("utf-8"))
    except ValueError:
        return None, "ignored %s %s: not a %s (unreadable JSON)" % (what, path, what)
    if not valid(entry):
        return None, "ignored %s %s: not a %s (fields missing or of the wrong type)" % (what, path, what)
    if entry["uid"] != info.st_uid:
        return None, "ignored %s %s: it says uid %d but uid %d owns the file" % (what, path, entry["uid"],
                                                                                info.st_uid)
    entry["file"] = name
    return entry, None


def read_claim(directory, name):
    return read_owned(directory, name, valid_claim, "claim")


def whole_number(value, nullable=False):
    return value is None and nullable or isinstance(value, int) and not isinstance(value, bool) and value >= 0


def short_text(value, nullable=False):
    return value is None and nullable or isinstance(value, str) and 0 < len(value) <= 256


def valid_claim(claim):
    whole, text = whole_number, short_text
    return isinstance(claim, dict) and whole(claim.get("uid")) and text(claim.get("user")) \
        and text(claim.get("queue")) and text(claim.get("queue_name"), True) and whole(claim.get("job")) \
        and whole(claim.get("attempt")) and isinstance(claim.get("gpus"), list) and 0 < len(claim["gpus"]) <= 64 \
        and all(text(uuid) for uuid in claim["gpus"]) and whole(claim.get("mib")) \
        and isinstance(claim.get("exclusive", False), bool) and whole(claim.get("pid"), True) \
        and whole(claim.get("start_ticks"), True) and text(claim.get("boot_id"), True) \
        and whole(claim.get("agent_pid"), True) and whole(claim.get("agent_ticks"), True) \
        and isinstance(claim.get("created_at"), (int, float)) \
        and (claim.get("expires_at") is None or isinstance(claim.get("expires_at"), (int, float)))


def claim_alive(claim, now, boot_id, hidden):
    """Whether a claim still holds its GPUs: its wrapper runs (pid and start time, this boot),
    or it has no wrapper yet and is younger than CLAIM_SURE_S, or younger than CLAIM_PENDING_S
    with the agent that wrote it running; never past its expiry. Another
    user's wrapper that /proc hides (hidepid) is taken to run until the claim expires."""
    if claim.get("expires_at") is not None and claim["expires_at"] < now:
        return False
    if claim.get("boot_id") is not None and claim["boot_id"] != boot_id:
        return False
    if claim.get("pid") is None or claim.get("start_ticks") is None:
        if claim["created_at"] <= now - CLAIM_PENDING_S:
            return False
        if claim["created_at"] > now - CLAIM_SURE_S:
            return True  # its launch is under way: never let a claim go on a reading of /proc alone
        if claim.get("agent_pid") is None or claim.get("agent_ticks") is None or hidden and claim["uid"] != os.geteuid():
            return True
        return alive(claim["agent_pid"], claim["agent_ticks"], boot_id)
    if hidden and claim["uid"] != os.geteuid():
        return True
    return alive(claim["pid"], claim["start_ticks"], boot_id)


def live_claims(directory):
    """(live claims, warnings) of the claims directory; this user's dead claims are removed."""
    claims, warnings = [], []
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return claims, warnings
        return claims, ["cannot read claims_dir %s: %s" % (directory, e.strerror)]
    now, boot_id, hidden = time.time(), current_boot_id(), proc_visibility()[1]
    euid = os.geteuid()
    for name in names:
        if not name.startswith(CLAIM_PREFIX) or not name.endswith(".json"):
            continue
        claim, warning = read_claim(directory, name)
        if warning is not None:
            warnings.append(warning)
        if claim is None:
            continue
        if claim_alive(claim, now, boot_id, hidden):
            claims.append(claim)
        elif claim["uid"] == euid:
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass
    return claims, warnings


def claim_use(claims, gpus, sid_of):
    """Adds "used_mib" to each claim: per GPU UUID, the memory its job's processes (the session
    its wrapper leads) hold there now."""
    for claim in claims:
        claim["used_mib"] = {}
        for gpu in gpus:
            if gpu.get("uuid") not in claim["gpus"]:
                continue
            used = 0
            for process in gpu.get("processes") or []:
                if claim.get("pid") is not None and sid_of(process["pid"]) == claim["pid"]:
                    used += process.get("mem_mb") or 0
            claim["used_mib"][gpu["uuid"]] = used


def valid_demand(entry):
    whole, text = whole_number, short_text
    return isinstance(entry, dict) and whole(entry.get("uid")) and text(entry.get("user")) \
        and text(entry.get("queue")) and text(entry.get("queue_name"), True) and whole(entry.get("waiting")) \
        and whole(entry.get("gpus")) and whole(entry.get("mib")) and isinstance(entry.get("exclusive", False), bool) \
        and isinstance(entry.get("oldest_at"), (int, float)) and isinstance(entry.get("updated_at"), (int, float))


def demand_name(uid, queue):
    return "%s%d-%s.json" % (DEMAND_PREFIX, uid, queue)


def this_user():
    uid = os.geteuid()
    try:
        return uid, pwd.getpwuid(uid).pw_name
    except KeyError:
        return uid, str(uid)


def publish_demand(request):
    """Writes (or refreshes, or removes when nothing waits) this queue's waiting demand in the
    claims directory: what its ready GPU jobs for this node need, for other queues' fair share.
    Only a queue's probe that carries "demand" publishes; a monitor's names no queue."""
    settings = request.get("claims")
    wanted = settings.get("demand") if isinstance(settings, dict) else None
    directory, queue, queue_name = claims_settings(request)
    if queue is None or not isinstance(wanted, dict) or "/" in queue or queue.startswith("."):
        return
    uid, user = this_user()
    path = os.path.join(directory, demand_name(uid, queue))
    entry = {"uid": uid, "user": user, "queue": queue, "queue_name": queue_name,
             "waiting": wanted.get("waiting"), "gpus": wanted.get("gpus"), "mib": wanted.get("mib"),
             "exclusive": wanted.get("exclusive") is True, "oldest_at": wanted.get("oldest_at"),
             "updated_at": time.time()}
    if not valid_demand(entry):
        raise BadEntry("bad request: 'claims.demand' needs whole numbers 'waiting', 'gpus', 'mib' and 'oldest_at'")
    if entry["waiting"] == 0:
        remove_claim(path)
        return
    check_claims_dir(directory, True)
    write_entry(directory, path, entry)


def live_demand(directory):
    """(fresh demand entries of every queue, warnings); this user's stale ones are removed."""
    entries, warnings = [], []
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        return entries, [] if e.errno == errno.ENOENT else ["cannot read claims_dir %s: %s" % (directory, e.strerror)]
    now, euid = time.time(), os.geteuid()
    for name in names:
        if not name.startswith(DEMAND_PREFIX) or not name.endswith(".json"):
            continue
        entry, warning = read_owned(directory, name, valid_demand, "demand")
        if warning is not None:
            warnings.append(warning)
        if entry is None:
            continue
        if entry["updated_at"] > now - DEMAND_FRESH_S:
            entries.append(entry)
        elif entry["uid"] == euid:
            remove_claim(os.path.join(directory, name))
    return entries, warnings


def read_policy(directory):
    """(text, error) of the node's policy file in the claims directory: (None, None) when there
    is none. Believed only when it is a regular file (never a link) of at most POLICY_MAX_BYTES,
    owned by root or by the directory's owner, and writable by no one else."""
    path = os.path.join(directory, POLICY_FILE)
    try:
        fd = open_nofollow(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None, None
        if e.errno == errno.ELOOP:
            return None, "ignored %s: a symbolic link" % path
        return None, "cannot read %s: %s" % (path, e.strerror)
    try:
        info = os.fstat(fd)
        owner = os.lstat(directory).st_uid
        if not statmod.S_ISREG(info.st_mode):
            return None, "ignored %s: not a regular file" % path
        if info.st_uid not in (0, owner):
            return None, ("ignored %s: owned by uid %d, neither root nor the owner of %s; only whoever "
                          "administers the node writes the policy" % (path, info.st_uid, directory))
        if statmod.S_IMODE(info.st_mode) & 0o022:
            return None, ("ignored %s: others may write it (mode %04o); its owner should run 'chmod go-w %s'"
                          % (path, statmod.S_IMODE(info.st_mode), path))
        if info.st_size > POLICY_MAX_BYTES:
            return None, "ignored %s: %d bytes, more than a policy holds" % (path, info.st_size)
        data = os.read(fd, POLICY_MAX_BYTES + 1)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8"), None
    except ValueError:
        return None, "ignored %s: not UTF-8 text" % path


def claim_mib(claim, gpus):
    """MiB a claim holds over all its GPUs: its reservation on each, the whole card when exclusive."""
    total = 0
    for uuid in claim["gpus"]:
        card = next((g.get("mem_total_mb") for g in gpus if g.get("uuid") == uuid), None)
        total += card if claim.get("exclusive") and card else claim["mib"]
    return total


def cap_blocker(claim, cap, claims, gpus):
    """Why the node's policy cap (as the queue read it: {"gpus", "mib", "user"}) keeps this user's
    claim off, or None: every live claim of this uid on the node, of any queue, counts."""
    if not isinstance(cap, dict):
        return None
    mine = [c for c in claims if c["uid"] == claim["uid"]]
    held_gpus = sum(len(c["gpus"]) for c in mine)
    held_mib = sum(claim_mib(c, gpus) for c in mine)
    max_gpus, max_mib = cap.get("gpus"), cap.get("mib")
    if whole_number(max_gpus) and held_gpus + len(claim["gpus"]) > max_gpus:
        return "the node's policy caps %s at %d GPUs here and they hold %d" % (claim["user"], max_gpus, held_gpus)
    if whole_number(max_mib) and held_mib + claim_mib(claim, gpus) > max_mib:
        return "the node's policy caps %s at %d MiB here and they hold %d" % (claim["user"], max_mib, held_mib)
    return None


def claims_report(request, reply):
    """The probe's "claims": the directory, its error (an unsafe one is not read), warnings, and
    every live claim with what its job uses on each of its GPUs."""
    directory = claims_settings(request)[0]
    uid, user = this_user()
    report = {"dir": directory, "error": None, "warnings": [], "live": [], "me": {"uid": uid, "user": user},
              "demand": [], "policy": None, "policy_error": None}
    try:
        publish_demand(request)
        if not check_claims_dir(directory, False):
            return report
    except (BadEntry, OSError) as e:
        report["error"] = str(e) if isinstance(e, BadEntry) else "claims_dir %s: %s" % (directory, e.strerror)
        return report
    claims, report["warnings"] = live_claims(directory)
    demand, warnings = live_demand(directory)
    report["warnings"] += warnings
    report["policy"], report["policy_error"] = read_policy(directory)
    queue = claims_settings(request)[1]
    for claim in claims:
        claim["mine"] = queue is not None and claim["queue"] == queue
    for entry in demand:
        entry["mine"] = queue is not None and entry["queue"] == queue
        del entry["file"]
    report["demand"] = demand
    sessions_by_pid = reply.get("sessions") or {}

    def sid_of(pid):
        entry = sessions_by_pid.get(str(pid))
        return entry["sid"] if entry else None
    claim_use(claims, reply.get("gpus") or [], sid_of)
    report["live"] = claims
    return report


def fresh_gpus(agent):
    """Every GPU's UUID, total and used memory and processes, read again now (for a launch's
    claim check): from NVML, else from nvidia-smi; [] when neither answers."""
    reply = empty_reply()
    if agent.nvml is None:
        agent.nvml = load_nvml()[0]
    if agent.nvml is not None:
        count = ctypes.c_uint()
        try:
            agent.nvml.call(("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"), ctypes.byref(count))
        except NvmlError:
            return []
        gpus = []
        for index in range(count.value):
            gpu = empty_gpu(index)
            try:
                handle = agent.nvml.handle(index)
                gpu["uuid"] = optional(agent.nvml.string, "nvmlDeviceGetUUID", handle)
                memory(agent.nvml, handle, gpu)
                for kind in ("Compute", "Graphics"):
                    for pid, used in optional(device_processes, agent.nvml, handle, kind) or []:
                        if all(p["pid"] != pid for p in gpu["processes"]):
                            gpu["processes"].append({"pid": pid, "mem_mb": None if used is None else used // MIB})
            except NvmlError as e:
                gpu["error"] = str(e)
            gpus.append(gpu)
        return gpus
    try:
        smi_reply(reply)
    except RuntimeError:
        return []
    return reply["gpus"]


def claim_blockers(claim, gpus, claims):
    """Why the claim does not fit now, one sentence, or None when it fits on every GPU it names:
    each GPU's reserved memory is what the driver counts as used plus, for every live claim on
    it, what that claim reserved beyond what its job uses yet."""
    for uuid in claim["gpus"]:
        gpu = next((g for g in gpus if g.get("uuid") == uuid), None)
        others = [c for c in claims if uuid in c["gpus"]]
        if gpu is None or gpu.get("error") or gpu.get("mem_total_mb") is None or gpu.get("mem_used_mb") is None:
            if others:  # what they leave cannot be checked: wait for a card that can be read
                return "GPU %s cannot be read now and holds claims: %s" % (
                    uuid, ", ".join(describe_claim(c) for c in others))
            continue  # unread and unclaimed: the queue's plan stands (it read the card a moment ago)
        unused = sum(max(0, c["mib"] - c["used_mib"].get(uuid, 0)) for c in others)
        reserved = gpu["mem_used_mb"] + unused
        holders = ", ".join(describe_claim(c, uuid) for c in others)
        if claim.get("exclusive") and (others or gpu["processes"]):
            return "GPU %s is not empty: %s" % (uuid, holders or "%d process(es) use it" % len(gpu["processes"]))
        exclusive = [c for c in others if c.get("exclusive")]
        if exclusive:
            return "GPU %s is held whole by %s" % (uuid, describe_claim(exclusive[0], uuid))
        if reserved + claim["mib"] > gpu["mem_total_mb"]:
            return "GPU %s has %d MiB free of %d (%d used%s), %d MiB needed" % (
                uuid, max(0, gpu["mem_total_mb"] - reserved), gpu["mem_total_mb"], gpu["mem_used_mb"],
                "; claims: " + holders if holders else "", claim["mib"])
    return None


def describe_claim(claim, uuid=None):
    mib = max(claim["mib"], claim.get("used_mib", {}).get(uuid, 0)) if uuid else claim["mib"]
    queue = claim.get("queue_name") or claim["queue"][:8]
    return "%s: %.1fG reserved, job %d of queue %s" % (claim["user"], mib / 1024.0, claim["job"], queue)


def write_claim(directory, claim):
    """Publishes this user's claim file (mode 0644: every queue must read it)."""
    path = os.path.join(directory, claim_name(claim["uid"], claim["queue"], claim["job"], claim["attempt"]))
    return write_entry(directory, path, claim)


def write_entry(directory, path, entry):
    """Writes a claims-directory entry through a temporary name of its own, then renames it in place."""
    temporary = os.path.join(directory, ".%s.%d.%s.tmp" % (os.path.basename(path), os.getpid(),
                                                           os.urandom(4).hex()))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), 0o644)
            f.write(json.dumps({k: v for k, v in entry.items() if k not in ("file", "used_mib", "mine")}) + "\n")
        os.rename(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return path


def remove_claim(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def take_claim(entry, request, agent):
    """For a launch that names GPUs: under the claims directory's lock, the GPUs' memory and
    every live claim read again; returns (path of the claim written, None), or (None, why the
    job lost its card) when it no longer fits, or (None, None) when the launch names no GPU."""
    wanted = entry.get("claim")
    if not isinstance(wanted, dict) or not wanted.get("gpus"):
        return None, None
    directory, queue, queue_name = claims_settings(request)
    if queue is None:
        raise BadEntry("bad request: a launch with a claim needs 'claims.queue'")
    check_claims_dir(directory, True)
    uid = os.geteuid()
    try:
        user = pwd.getpwuid(uid).pw_name
    except KeyError:
        user = str(uid)
    timeout = wanted.get("timeout_s")
    now = time.time()
    claim = {"uid": uid, "user": user, "queue": queue, "queue_name": queue_name,
             "job": field(entry, "id", int), "attempt": field(entry, "attempt", int),
             "gpus": [str(uuid) for uuid in wanted["gpus"]], "mib": int(wanted.get("mib") or 0),
             "exclusive": wanted.get("exclusive") is True, "pid": None, "start_ticks": None,
             "agent_pid": os.getpid(), "agent_ticks": (proc_stat(os.getpid()) or (None,) * 4)[3],
             "boot_id": current_boot_id(), "created_at": now,
             "expires_at": None if not isinstance(timeout, (int, float)) or isinstance(timeout, bool)
             else now + timeout + 3600}
    if not valid_claim(claim):
        raise BadEntry("bad request entry: 'claim' must name GPU UUIDs and a whole number of MiB")
    lock = open_nofollow(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        deadline = time.monotonic() + CLAIM_LOCK_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except (IOError, OSError) as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        mine = claim_name(uid, queue, claim["job"], claim["attempt"])
        claims = [c for c in live_claims(directory)[0] if c["file"] != mine]
        gpus = fresh_gpus(agent)
        sids = {}

        def sid_of(pid):
            if pid not in sids:
                stat = proc_stat(pid)
                sids[pid] = stat[2] if stat else None
            return sids[pid]
        claim_use(claims, gpus, sid_of)
        blocker = claim_blockers(claim, gpus, claims) or cap_blocker(claim, wanted.get("cap"), claims, gpus)
        if blocker is not None:
            return None, blocker
        return write_claim(directory, claim), None
    finally:
        os.close(lock)  # releases the lock


def bind_claim(path, identity):
    """Records the wrapper in the claim: from now on the claim lives exactly as long as it."""
    if path is None:
        return
    try:
        with os.fdopen(open_nofollow(path), "rb") as f:
            claim = json.loads(f.read(CLAIM_MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return
    claim["pid"], claim["start_ticks"] = identity.get("pid"), identity.get("start_ticks")
    claim["boot_id"] = identity.get("boot_id")
    write_claim(os.path.dirname(path), claim)
