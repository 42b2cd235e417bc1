package dev.nvidb.node;

import dev.nvidb.ssh.ExecResult;
import dev.nvidb.ssh.SshPool;
import dev.nvidb.ssh.SshTarget;
import java.time.Duration;

/** Runs node commands over the process's shared SSH connection to the node. */
public final class SshShell implements NodeShell {

    private final SshPool pool;
    private final SshTarget target;
    private volatile String address;

    public SshShell(SshPool pool, SshTarget target) {
        this.pool = pool;
        this.target = target;
    }

    @Override
    public CommandResult run(String command, byte[] stdin, Duration timeout) {
        ExecResult result = pool.exec(target, command, stdin, timeout);
        return new CommandResult(result.exitStatus(), result.stdout(), result.stderr());
    }

    @Override
    public java.util.Optional<AgentPipe> start(String command) {
        dev.nvidb.ssh.RemoteProcess process = pool.start(target, command);
        return java.util.Optional.of(new AgentPipe() {
            @Override
            public java.io.OutputStream stdin() {
                return process.stdin();
            }

            @Override
            public java.io.InputStream stdout() {
                return process.stdout();
            }

            @Override
            public String stderrTail() {
                return process.stderrTail();
            }

            @Override
            public void close() {
                process.close();
            }
        });
    }

    @Override
    public String address() {
        String known = address;
        if (known == null) {
            try {
                known = pool.resolve(target).address();
            } catch (RuntimeException e) {
                known = target.hostOrNode();
            }
            address = known;
        }
        return known;
    }
}
