package dev.nvidb.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real terminal for the tests that drive {@code bin/nvidb} as a person would: a detached tmux
 * session of a given size running one command line, keys sent to it, and its screen read back.
 * Waits poll the screen until what is expected shows (60 s at most) and fail with the screen
 * they saw; nothing is timed. Closing kills the session.
 */
final class TmuxScreen implements AutoCloseable {

    private static final long WAIT_S = 60;

    private final String session;

    private TmuxScreen(String session) {
        this.session = session;
    }

    /**
     * Starts {@code bin/nvidb ARGS} for a user whose home is {@code home} in a {@code width} ×
     * {@code height} terminal; when it ends the terminal shows {@code EXIT=<status>} and stays.
     */
    static TmuxScreen nvidb(String name, int width, int height, Path home, String args) {
        Prerequisites.requireTmux();
        Path project = Path.of(System.getProperty("nvidb.project.dir", "."));
        String command = "env HOME=" + home + " NVIDB_NO_BUILD=1 NVIDB_BUILD_DIR="
                + System.getProperty("nvidb.build.dir", project.resolve("target").toString()) + " "
                + project.resolve("bin/nvidb") + " " + args + "; echo EXIT=$?; sleep 300";
        String session = name + "-" + ProcessHandle.current().pid();
        tmux("new-session", "-d", "-s", session, "-x", Integer.toString(width), "-y", Integer.toString(height), command);
        return new TmuxScreen(session);
    }

    /** Sends keys in tmux's names ({@code Enter}, {@code Escape}, {@code C-c}, or characters). */
    TmuxScreen keys(String... keys) {
        for (String key : keys) {
            tmux("send-keys", "-t", session, key);
        }
        return this;
    }

    /** Types {@code text} as it is. */
    TmuxScreen type(String text) {
        tmux("send-keys", "-t", session, "-l", text);
        return this;
    }

    String screen() {
        return tmux("capture-pane", "-p", "-t", session);
    }

    /** A tmux format about the pane ({@code #{alternate_on}}, …). */
    String pane(String format) {
        return tmux("display-message", "-p", "-t", session, format).strip();
    }

    /** The screen once every one of {@code texts} is on it. */
    String await(String... texts) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = screen();
            String current = screen;
            if (List.of(texts).stream().allMatch(current::contains)) {
                return screen;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError(List.of(texts) + " did not all appear on the terminal:\n" + screen);
    }

    @Override
    public void close() {
        tmux("kill-session", "-t", session);
    }

    private static String tmux(String... args) {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
