package dev.nvidb.alerts;

import dev.nvidb.error.InterruptedByUser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one program for a delivery, never through a shell unless its argv says so: the alert on
 * stdin, the variables given added to this process's environment, a timeout after which it and
 * its children are killed, and its output (stdout and stderr together) kept to the first
 * {@link #KEPT} bytes (the rest is read and dropped, so a chatty hook cannot block or fill memory).
 */
final class Hook {

    /** Bytes of a hook's output kept for its error message. */
    static final int KEPT = 4096;

    private Hook() {
    }

    /**
     * Runs {@code argv} and returns normally when it exits 0.
     *
     * @throws IOException it could not start, exited non-zero (with the last line it printed)
     *                     or ran past {@code timeout} (then it was killed)
     */
    static void run(List<String> argv, Map<String, String> environment, Path directory, byte[] stdin,
                    Duration timeout) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().putAll(environment);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot run " + argv.get(0) + ": " + cause(e));
        }
        Thread writer = new Thread(() -> feed(process.getOutputStream(), stdin), "nvidb-hook-stdin");
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> drain(process.getInputStream(), kept), "nvidb-hook-output");
        writer.setDaemon(true);
        reader.setDaemon(true);
        writer.start();
        reader.start();
        boolean ended;
        try {
            ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new InterruptedByUser("interrupted while " + argv.get(0) + " ran", e);
        }
        if (!ended) {
            kill(process);
            throw new IOException(argv.get(0) + " ran longer than " + timeout.toSeconds() + " s and was killed");
        }
        try {
            reader.join(1000); // a child that kept the output open must not hold the daemon
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedByUser("interrupted while " + argv.get(0) + " ran", e);
        }
        int code = process.exitValue();
        if (code != 0) {
            String said = lastLine(kept);
            throw new IOException(argv.get(0) + " exited " + code + (said.isEmpty() ? "" : ": " + said));
        }
    }

    private static void feed(OutputStream in, byte[] bytes) {
        try (in) {
            in.write(bytes);
        } catch (IOException ignored) {
            // The hook need not read its stdin (a closed pipe is not a failed delivery).
        }
    }

    private static void drain(InputStream out, ByteArrayOutputStream kept) {
        byte[] buffer = new byte[8192];
        try (out) {
            int n;
            while ((n = out.read(buffer)) >= 0) {
                synchronized (kept) {
                    int room = KEPT - kept.size();
                    if (room > 0) {
                        kept.write(buffer, 0, Math.min(room, n));
                    }
                }
            }
        } catch (IOException ignored) {
            // The process was killed, or closed its output: what was kept is kept.
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last non-blank line the hook printed, control characters replaced, at most 200 characters. */
    private static String lastLine(ByteArrayOutputStream kept) {
        String text;
        synchronized (kept) {
            text = kept.toString(StandardCharsets.UTF_8);
        }
        String last = "";
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                last = line.strip();
            }
        }
        last = last.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return last.length() > 200 ? last.substring(0, 197) + "..." : last;
    }

    private static String cause(IOException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int reason = message.lastIndexOf("error=");
        return reason >= 0 ? message.substring(reason) : message;
    }
}
