# --- nvidia-smi: the snapshot when NVML cannot be loaded --------------------------------------

SMI_TIMEOUT_S = 20

SMI_GPU_FIELDS = ("index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,"
                  "utilization.gpu,utilization.memory,temperature.gpu,power.draw,"
                  "power.limit,driver_version")
SMI_APP_FIELDS = "gpu_uuid,pid,process_name,used_memory"


def smi_value(text, convert=None):
    text = text.strip()
    if not text or text.startswith("[") or text in ("N/A", "Not Supported"):
        return None
    if convert is None:
        return text
    try:
        return convert(text)
    except ValueError:
        return None


def run_smi(fields):
    """Lines of one CSV query; raises RuntimeError with the tool's own words on failure."""
    import subprocess
    try:
        result = subprocess.run(["nvidia-smi", fields, "--format=csv,noheader,nounits"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, timeout=SMI_TIMEOUT_S)
    except OSError:
        raise RuntimeError("nvidia-smi is not on PATH")
    except subprocess.TimeoutExpired:
        raise RuntimeError("nvidia-smi did not answer within %d s" % SMI_TIMEOUT_S)
    output = result.stdout.decode("utf-8", "replace")
    if result.returncode != 0:
        words = (output.strip() or result.stderr.decode("utf-8", "replace").strip())
        raise RuntimeError("nvidia-smi failed (exit %d): %s"
                           % (result.returncode, " ".join(words.split())[:400]))
    return [line for line in output.splitlines() if line.strip()]


def smi_reply(reply):
    gpus, by_uuid, notes = [], {}, []
    for line in run_smi("--query-gpu=" + SMI_GPU_FIELDS):
        parts = [part.strip() for part in line.split(", ")]
        index = smi_value(parts[0], int)
        if len(parts) != 13 or index is None:
            notes.append("nvidia-smi: " + line.strip())  # e.g. a lost GPU's message
            continue
        gpu = empty_gpu(index)
        total, free = smi_value(parts[4], int), smi_value(parts[6], int)
        gpu.update({
            "uuid": smi_value(parts[1]), "pci_bus_id": smi_value(parts[2]),
            "name": smi_value(parts[3]), "mem_total_mb": total, "mem_free_mb": free,
            # Used is all that is not free, as with NVML (newer drivers leave reserved memory out).
            "mem_used_mb": smi_value(parts[5], int) if None in (total, free) else max(0, total - free),
            "util_percent": smi_value(parts[7], int),
            "mem_util_percent": smi_value(parts[8], int),
            "temperature_c": smi_value(parts[9], int), "power_w": smi_value(parts[10], float),
            "power_limit_w": smi_value(parts[11], float)})
        reply["driver_version"] = reply["driver_version"] or smi_value(parts[12])
        gpus.append(gpu)
        by_uuid[gpu["uuid"]] = gpu
    for line in run_smi("--query-compute-apps=" + SMI_APP_FIELDS):
        parts = line.split(", ")
        pid = smi_value(parts[1], int) if len(parts) >= 4 else None
        gpu = by_uuid.get(parts[0].strip())
        if pid is None or gpu is None:
            continue
        mem = smi_value(parts[-1], int)
        process = {"pid": pid, "type": "compute", "mem_mb": mem}
        process.update(process_details(pid, smi_value(", ".join(parts[2:-1]))))
        gpu["processes"].append(process)
    reply["source"] = "nvidia-smi"
    reply["gpus"] = gpus
    return notes
