#!/usr/bin/env bash
# bench/claims.sh (issue 25): what a GPU claim costs on the node. Runs the real agent
# (remote-agent/src, joined as the build joins it; one exec per request as a tick sends it) against
# the fake NVML, alternating, N times each:
#   launch      a launch of `true` on a GPU without a claim, and the same launch with its claim
#               (lock, fresh GPU read, every live claim read, claim written and bound); then four
#               launches in one exec, without and with claims (what a claim adds per launch once
#               the exec has loaded NVML); then the same single launches sent to one resident
#               agent (`--serve`, as a daemon keeps it), which has NVML loaded already;
#   probe       a probe of a node whose claims directory is empty, and of one holding 10 live
#               claims of other queues (read, checked, charged).
# Prints the medians and their differences. Usage: bench/claims.sh [N] (default 100).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
work=$(mktemp -d)
trap 'pkill -KILL -f "nvidb-bench-claims-sleeper" 2>/dev/null || true; rm -rf "$work"' EXIT
bash src/test/native/build.sh "$work/fake" >/dev/null
java remote-agent/JoinAgent.java remote-agent/src remote-agent/modules.txt "$work/nvidb_agent.py"
printf 'gpu 0\nmem_total_mib 81920\nmem_used_mib 0\n' > "$work/state"
export LD_LIBRARY_PATH=$work/fake/lib NVIDB_FAKE_NVML_STATE=$work/state HOME=$work/home
mkdir -p "$work/home" "$work/busy"
chmod 1777 "$work/busy"
python3 - "$n" "$work" <<'PY'
import json, os, statistics, subprocess, sys, time
n, work = int(sys.argv[1]), sys.argv[2]
agent = os.path.join(work, "nvidb_agent.py")
gpu = "GPU-00000000-0000-0000-0000-000000000000"
# 10 live claims of other queues, held by one long sleeper
sleeper = subprocess.Popen(["bash", "-c", "exec -a nvidb-bench-claims-sleeper sleep 600"])
ticks = open("/proc/%d/stat" % sleeper.pid).read().rsplit(")", 1)[1].split()[19]
boot = open("/proc/sys/kernel/random/boot_id").read().strip()
for i in range(10):
    with open(os.path.join(work, "busy", "claim-%d-other%d-%d-1.json" % (os.getuid(), i, i)), "w") as f:
        json.dump({"uid": os.getuid(), "user": "bench", "queue": "other%d" % i, "job": i, "attempt": 1,
                   "gpus": [gpu], "mib": 1024, "pid": sleeper.pid, "start_ticks": int(ticks), "boot_id": boot,
                   "created_at": time.time()}, f)

def run(request):
    start = time.perf_counter()
    out = subprocess.run([sys.executable, agent], input=json.dumps(request).encode(), stdout=subprocess.PIPE,
                         check=True).stdout
    took = (time.perf_counter() - start) * 1000
    reply = json.loads(out)
    return took, reply

def launch(i, claim, count=1):
    entries = []
    for k in range(count):
        job = i * 10 + k
        entry = {"id": job, "attempt": 1, "token": "t%d%s%d" % (job, claim, count),
                 "dir": "~/jobs/%d%s%d" % (job, claim, count), "script": "#!/bin/bash\ntrue\n"}
        if claim:
            entry["claim"] = {"gpus": [gpu], "mib": 1024, "exclusive": False, "timeout_s": None}
        entries.append(entry)
    request = {"job_root": "~/jobs", "snapshot": False, "launch": entries,
               "claims": {"dir": os.path.join(work, "claimed"), "queue": "bench", "name": "bench"}}
    took, reply = run(request)
    assert [r["status"] for r in reply["launches"]] == ["started"] * count, reply["launches"]
    return took

def probe(directory):
    took, reply = run({"job_root": "~/jobs", "claims": {"dir": directory, "queue": "bench"}})
    return took, len(reply["claims"]["live"])

plain, claimed, empty, busy = [], [], [], []
for i in range(n):  # alternating, the order flipped every round
    for claim in ("", "c") if i % 2 else ("c", ""):
        (claimed if claim else plain).append(launch(i, claim))
resident = subprocess.Popen([sys.executable, agent, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def served(request):
    start = time.perf_counter()
    resident.stdin.write((json.dumps(request) + "\n").encode())
    resident.stdin.flush()
    reply = json.loads(resident.stdout.readline())
    return (time.perf_counter() - start) * 1000, reply

def launch_served(i, claim):
    entry = {"id": i, "attempt": 1, "token": "r%d%s" % (i, claim), "dir": "~/jobs/r%d%s" % (i, claim),
             "script": "#!/bin/bash\ntrue\n"}
    if claim:
        entry["claim"] = {"gpus": [gpu], "mib": 1024, "exclusive": False, "timeout_s": None}
    took, reply = served({"job_root": "~/jobs", "snapshot": False, "launch": [entry],
                          "claims": {"dir": os.path.join(work, "claimed"), "queue": "bench", "name": "bench"}})
    assert reply["launches"][0]["status"] == "started", reply["launches"]
    return took

served({"job_root": "~/jobs"})  # a daemon's agent has probed (and loaded NVML) before it launches
plain_r, claimed_r = [], []
for i in range(n):
    for claim in ("", "c") if i % 2 else ("c", ""):
        (claimed_r if claim else plain_r).append(launch_served(10 * n + i, claim))
resident.stdin.close()
resident.wait()
plain4, claimed4 = [], []
for i in range(n):  # four launches in one exec, as a tick that places four jobs on a node sends them
    for claim in ("", "c") if i % 2 else ("c", ""):
        (claimed4 if claim else plain4).append(launch(n + i, claim, 4))
time.sleep(1)  # the launched jobs' wrappers are gone before the probes are timed
for i in range(n):
    for directory in ("none", "busy") if i % 2 else ("busy", "none"):
        took, live = probe(os.path.join(work, directory))
        assert live == (10 if directory == "busy" else 0), live
        (busy if directory == "busy" else empty).append(took)
sleeper.kill()
m = statistics.median
print("launch without claim   median %6.1f ms" % m(plain))
print("launch with claim      median %6.1f ms   (+%.1f ms; target <= 5 ms)" % (m(claimed), m(claimed) - m(plain)))
print("4 launches, no claims  median %6.1f ms" % m(plain4))
print("4 launches with claims median %6.1f ms   (+%.1f ms per launch)" % (m(claimed4), (m(claimed4) - m(plain4)) / 4))
print("resident agent (a daemon's), launch without / with claim: %.1f / %.1f ms   (+%.1f ms)"
      % (m(plain_r), m(claimed_r), m(claimed_r) - m(plain_r)))
print("probe, no claims       median %6.1f ms" % m(empty))
print("probe, 10 live claims  median %6.1f ms   (+%.1f ms, %+.1f %%)" % (m(busy), m(busy) - m(empty),
                                                                        100 * (m(busy) - m(empty)) / m(empty)))
# one line for bench/run
print("bench-claims %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f" % (m(plain), m(claimed), m(plain4), m(claimed4), m(empty),
                                                     m(busy), m(plain_r), m(claimed_r)))
PY
