package dev.nvidb.agent;

import dev.nvidb.error.NodeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The node helper ({@code nvidb_agent.py}, which the build joins from the parts in
 * {@code remote-agent/src}), bundled in the jar, and the one shell line that starts it on a
 * node. Nothing is installed on nodes: the script is sent on the channel's standard input,
 * behind its byte count, at every use.
 */
public final class AgentScript {

    private static final String RESOURCE = "nvidb_agent.py";

    /** Marker the no-python3 branch prints before its nvidia-smi CSV output. */
    static final String SMI_MARKER = "#nvidb-smi-fallback";

    /** nvidia-smi's GPU fields in the no-python3 branch; the agent's own fallback asks for the same ({@code SMI_GPU_FIELDS}). */
    static final String GPU_QUERY = "index,uuid,pci.bus_id,name,memory.total,memory.used,memory.free,"
            + "utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit,driver_version";
    /** nvidia-smi's process fields, as above ({@code SMI_APP_FIELDS}). */
    static final String APP_QUERY = "gpu_uuid,pid,process_name,used_memory";

    /**
     * What python3 runs ({@code -c}, inside single quotes in a shell line, so none in it): it
     * reads the script behind its byte count and runs it. The count's line also names the
     * script's digest; its compiled code is kept in {@code ~/.nvidb/agent} under that digest and
     * the interpreter's version, so later starts skip compiling 80 kB of Python (30 ms of every
     * agent's start). Only a file of the node's user that no one else may write is used; any
     * trouble reading or writing it means compiling, as without it. A third word on the count's
     * line ({@link #withoutKeeping}) uses kept code but writes none until a request asks it to
     * ({@code "keep_code": true}, see docs/agent-protocol.md). An older python3 (3.5, or a 2.7
     * behind that name) only says on stderr that 3.6 is needed, after draining a one-shot
     * probe's input as the no-python3 branch does; the parser shows that line as the node's error.
     */
    private static final String BOOTSTRAP = """
            import sys,os,marshal
            if sys.version_info<(3,6):
             sys.stderr.write("python3 on the node is %d.%d.%d, and the nvidb agent needs 3.6 or newer\\n"%sys.version_info[:3])
             if "--once" in sys.argv:
              getattr(sys.stdin,"buffer",sys.stdin).read()
             sys.exit(3)
            def _nvidb_keep(c,d,p,v):
             try:
              os.makedirs(d,0o700,exist_ok=True)
              for n in os.listdir(d):
               if n.endswith(v):
                os.unlink(d+"/"+n)
              t="%s.%d"%(p,os.getpid())
              with open(os.open(t,os.O_WRONLY|os.O_CREAT|os.O_EXCL,0o600),"wb") as f:
               marshal.dump(c,f)
              os.rename(t,p)
             except Exception:
              pass
            def _nvidb_agent():
             global _nvidb_later
             b=sys.stdin.buffer
             h=b.readline().split()
             s=b.read(int(h[0]))
             if len(h)<2 or not h[1].isalnum():
              return compile(s,"nvidb_agent.py","exec")
             d=os.path.expanduser("~/.nvidb/agent")
             v="-%s-%x.code"%(sys.implementation.cache_tag,sys.hexversion)
             p=d+"/"+h[1].decode()+v
             try:
              with open(p,"rb") as f:
               i=os.fstat(f.fileno())
               if i.st_uid==os.geteuid() and not i.st_mode&0o22:
                return marshal.load(f)
             except Exception:
              pass
             c=compile(s,"nvidb_agent.py","exec")
             if len(h)>2:
              _nvidb_later=(c,d,p,v)
             else:
              _nvidb_keep(c,d,p,v)
             return c
            _nvidb_later=None
            exec(_nvidb_agent())""";

    private final byte[] script;
    /** The script's digest, naming its compiled code on the nodes. */
    private final String digest;
    /** Whether an agent started with this script may write its compiled code on the node. */
    private final boolean keeping;

    private AgentScript(byte[] script) {
        this(script, digest(script), true);
    }

    private AgentScript(byte[] script, String digest, boolean keeping) {
        this.script = script;
        this.digest = digest;
        this.keeping = keeping;
    }

    /**
     * This script for agents that must leave nothing behind on a node (those a command line
     * starts before it is known to be valid): they run the compiled code kept there, but a node
     * without it compiles the script and writes nothing.
     */
    public AgentScript withoutKeeping() {
        return new AgentScript(script, digest, false);
    }

    private static String digest(byte[] script) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(script),
                    0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether agents started with this script keep their compiled code on the node (see {@link #withoutKeeping}). */
    public boolean keeping() {
        return keeping;
    }

    /** The {@code -c} program python3 runs (see {@code docs/agent-protocol.md}). */
    static String bootstrap() {
        return BOOTSTRAP;
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

    /** What to write on standard input first: the byte count, a space, the digest, a newline, the script. */
    public byte[] preamble() {
        byte[] count = (script.length + " " + digest + (keeping ? "" : " read") + "\n").getBytes(StandardCharsets.US_ASCII);
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
