# --- the node itself: disk, boot, load, /proc visibility -------------------------------------

def disk(job_root):
    path = os.path.abspath(os.path.expanduser(job_root))
    probe = path
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)  # the nearest existing parent
    try:
        stat = os.statvfs(probe)
        return path, stat.f_bavail * stat.f_frsize // MIB
    except OSError:
        return path, None


def current_boot_id():
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip() or None
    except (IOError, OSError):
        return None


def proc_visibility():
    """The hidepid option of /proc ("0" when absent) and whether it hides other users'
    processes from this user (root, and members of the gid= group, see them all); (None, None)
    when /proc/mounts cannot be read."""
    try:
        with open("/proc/mounts", "rb") as f:  # mount points need not be ASCII (Python 3.6's C locale)
            lines = f.read().decode("utf-8", "replace").splitlines()
    except (IOError, OSError):
        return None, None
    options = None
    for line in lines:
        fields = line.split()
        if len(fields) >= 4 and fields[1] == "/proc" and fields[2] == "proc":
            options = fields[3].split(",")  # the last mount on /proc is the one in effect
    if options is None:
        return None, None
    hidepid, gid = "0", None
    for option in options:
        if option.startswith("hidepid="):
            hidepid = option[len("hidepid="):]
        elif option.startswith("gid="):
            gid = option[len("gid="):]
    if hidepid in ("0", "off") or os.geteuid() == 0:
        return hidepid, False
    try:
        exempt = gid is not None and int(gid) in os.getgroups() + [os.getegid()]
    except ValueError:
        exempt = False
    return hidepid, not exempt


def node_info(request):
    boot_id = current_boot_id()
    try:
        load = [round(value, 2) for value in os.getloadavg()]
    except OSError:
        load = None
    job_root = request.get("job_root")
    path, free = disk(job_root if isinstance(job_root, str) and job_root else "~/.nvidb/jobs")
    hidepid, hides = proc_visibility()
    return {"hostname": os.uname().nodename, "boot_id": boot_id, "time": time.time(),
            "load": load, "cpu_count": os.cpu_count(), "disk_path": path,
            "disk_free_mb": free, "python": "%d.%d.%d" % sys.version_info[:3],
            "proc_hidepid": hidepid, "proc_hides_others": hides}
