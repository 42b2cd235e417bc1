package dev.nvidb.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * An SSH exec request run as a real process, {@code /bin/sh -c COMMAND}, like sshd would: the
 * channel's stdin, stdout and stderr are pumped both ways on their own threads (so neither
 * side can deadlock the other), the exit status is reported once all output is sent, and
 * closing the channel kills the command and its children, except children that left the
 * session with {@code setsid} (as jobs launched by nvidb do, and as they would survive sshd).
 */
final class ProcessCommand implements Command {

    private final String command;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private volatile Process process;

    ProcessCommand(String command, Map<String, String> environment, Path workingDirectory) {
        this.command = command;
        this.environment = environment;
        this.workingDirectory = workingDirectory;
    }

    @Override
    public void setInputStream(InputStream stream) {
        this.in = stream;
    }

    @Override
    public void setOutputStream(OutputStream stream) {
        this.out = stream;
    }

    @Override
    public void setErrorStream(OutputStream stream) {
        this.err = stream;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
        this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(List.of("/bin/sh", "-c", command))
                .directory(workingDirectory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        process = builder.start();
        pump("stdin", in, process.getOutputStream(), true);
        Thread stdout = pump("stdout", process.getInputStream(), out, false);
        Thread stderr = pump("stderr", process.getErrorStream(), err, false);
        Thread waiter = new Thread(() -> {
            try {
                int status = process.waitFor();
                stdout.join();
                stderr.join();
                exit.onExit(status);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "harness-exec-wait");
        waiter.setDaemon(true);
        waiter.start();
    }

    @Override
    public void destroy(ChannelSession channel) {
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        OptionalLong session = sessionId(running.pid());
        running.descendants()
                .filter(child -> session.isPresent() && sessionId(child.pid()).equals(session))
                .forEach(ProcessHandle::destroyForcibly);
        running.destroyForcibly();
    }

    private static Thread pump(String name, InputStream from, OutputStream to, boolean closeTarget) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[32 * 1024];
            try {
                int read;
                while ((read = from.read(buffer)) >= 0) {
                    to.write(buffer, 0, read);
                    to.flush();
                }
            } catch (IOException e) {
                // the other side went away; nothing more to copy
            } finally {
                if (closeTarget) {
                    try {
                        to.close();
                    } catch (IOException e) {
                        // already closed
                    }
                }
            }
        }, "harness-exec-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** The session id (field 6 of /proc/PID/stat), empty when the process is gone. */
    private static OptionalLong sessionId(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalLong.of(Long.parseLong(fields[3]));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
