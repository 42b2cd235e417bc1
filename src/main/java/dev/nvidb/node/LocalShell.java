package dev.nvidb.node;

import dev.nvidb.error.NodeException;
import dev.nvidb.ssh.RemoteProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs node commands on this machine as child processes of {@code /bin/sh -c}. */
public final class LocalShell implements NodeShell {

    private final String name;
    private final Map<String, String> environment;

    /**
     * @param name        the node's name, for messages
     * @param environment extra environment for the child (empty for the caller's own)
     */
    public LocalShell(String name, Map<String, String> environment) {
        this.name = name;
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String address() {
        return "local";
    }

    @Override
    public CommandResult run(String command, byte[] stdin, Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new NodeException(name + ": cannot start /bin/sh: " + e.getMessage(), null, e);
        }
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        Thread outPump = pump(process.getInputStream(), stdout);
        Thread errPump = pump(process.getErrorStream(), stderr);
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin);
        } catch (IOException e) {
            // The command may legitimately exit without reading its input; its output says why.
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new NodeException(name + ": local command gave no answer within " + timeout.toSeconds() + " s");
            }
            outPump.join();
            errPump.join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new NodeException(name + ": interrupted", null, e);
        }
        return new CommandResult(process.exitValue(), stdout.toByteArray(), stderr.toByteArray());
    }

    @Override
    public java.util.Optional<AgentPipe> start(String command) {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new NodeException(name + ": cannot start /bin/sh: " + e.getMessage(), null, e);
        }
        RemoteProcess.TailBuffer stderr = new RemoteProcess.TailBuffer();
        pump(process.getErrorStream(), stderr);
        return java.util.Optional.of(new AgentPipe() {
            @Override
            public OutputStream stdin() {
                return process.getOutputStream();
            }

            @Override
            public InputStream stdout() {
                return process.getInputStream();
            }

            @Override
            public String stderrTail() {
                return stderr.text();
            }

            @Override
            public void close() {
                try {
                    process.getOutputStream().close();
                } catch (IOException e) {
                    // already gone
                }
                process.destroy();
            }
        });
    }

    private static Thread pump(InputStream from, OutputStream to) {
        Thread thread = new Thread(() -> {
            try (from) {
                from.transferTo(to);
            } catch (IOException e) {
                // The process went away; what was read so far is kept.
            }
        }, "local-shell-pump");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
