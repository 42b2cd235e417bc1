package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** A real OpenSSH {@code ssh-agent} child process on a private socket, for tests of agent authentication. */
public final class SshAgentProcess implements AutoCloseable {

    private final Path socket;
    private final Process process;

    private SshAgentProcess(Path socket, Process process) {
        this.socket = socket;
        this.process = process;
    }

    /** Starts {@code ssh-agent -D -a SOCKET} in {@code dir} and waits (with a deadline) for its socket. */
    public static SshAgentProcess start(Path dir) {
        Path socket = dir.resolve("agent.sock");
        try {
            Process process = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(socket)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("ssh-agent did not start: " + Files.readString(dir.resolve("agent.log")));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            return new SshAgentProcess(socket, process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value for {@code SSH_AUTH_SOCK}. */
    public Path socket() {
        return socket;
    }

    /** Loads a private key with {@code ssh-add} (the key must not need a passphrase). */
    public void add(Path privateKey) {
        ProcessBuilder builder = new ProcessBuilder("ssh-add", privateKey.toString()).redirectErrorStream(true);
        builder.environment().put("SSH_AUTH_SOCK", socket.toString());
        try {
            Process add = builder.start();
            String output = new String(add.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (add.waitFor() != 0) {
                throw new IllegalStateException("ssh-add failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
