package dev.nvidb.agent;

import dev.nvidb.error.NodeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The node helper ({@code remote-agent/nvidb_agent.py}), bundled in the jar, and the one
 * shell line that starts it on a node. Nothing is installed on nodes: the script is sent
 * on the channel's standard input, behind its byte count, at every use.
 */
public final class AgentScript {

    private static final String RESOURCE = "nvidb_agent.py";

    /** Marker the no-python3 branch prints before its nvidia-smi CSV output. */
    static final String SMI_MARKER = "#nvidb-smi-fallback";

    private static final String GPU_QUERY = "index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,"
            + "utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit,driver_version";
    private static final String APP_QUERY = "gpu_uuid,pid,process_name,used_memory";

    private static final String BOOTSTRAP = "import sys;b=sys.stdin.buffer;n=int(b.readline());"
            + "exec(compile(b.read(n),\"nvidb_agent.py\",\"exec\"))";

    private final byte[] script;

    private AgentScript(byte[] script) {
        this.script = script;
    }

    /** Loads the bundled script. */
    public static AgentScript bundled() {
        try (InputStream in = AgentScript.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new NodeException("the node agent is missing from this build (" + RESOURCE + ")",
                        "rebuild nvidb: ./mvnw -q -DskipTests package");
            }
            return new AgentScript(in.readAllBytes());
        } catch (IOException e) {
            throw new NodeException("cannot read the bundled node agent: " + e.getMessage(), null, e);
        }
    }

    /** A script given directly (tests, development). */
    public static AgentScript of(byte[] script) {
        return new AgentScript(script.clone());
    }

    /**
     * The shell line for a one-shot probe: python3 runs the agent; without python3 the same
     * exec falls back to nvidia-smi's CSV queries between marker lines.
     */
    public String onceCommand() {
        return "if command -v python3 >/dev/null 2>&1; then exec python3 -S -c '" + BOOTSTRAP + "' --once; fi; "
                + "cat >/dev/null; echo '" + SMI_MARKER + "'; echo \"#hostname $(uname -n)\"; "
                + "if ! command -v nvidia-smi >/dev/null 2>&1; then echo '#no-nvidia-smi'; exit 0; fi; "
                + "nvidia-smi --query-gpu=" + GPU_QUERY + " --format=csv,noheader,nounits 2>&1; echo \"#status $?\"; "
                + "echo '#processes'; nvidia-smi --query-compute-apps=" + APP_QUERY
                + " --format=csv,noheader,nounits 2>/dev/null; echo '#end'";
    }

    /**
     * The shell line for a resident agent (a daemon's): python3 runs the agent in {@code --serve}
     * mode, answering one request line per reply line until its input ends. Without python3 it
     * fails at once, and the caller goes back to one-shot probes (with their nvidia-smi fallback).
     */
    public String serveCommand() {
        return "exec python3 -S -c '" + BOOTSTRAP + "' --serve";
    }

    /** What to write on standard input first: the byte count, a newline, the script. */
    public byte[] preamble() {
        byte[] count = (script.length + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(count, count.length + script.length);
        System.arraycopy(script, 0, out, count.length, script.length);
        return out;
    }

    /** The whole standard input of a one-shot probe: preamble, then one request line. */
    public byte[] onceInput(String requestJson) {
        byte[] preamble = preamble();
        byte[] request = (requestJson + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(preamble, preamble.length + request.length);
        System.arraycopy(request, 0, out, preamble.length, request.length);
        return out;
    }
}
