package dev.nvidb.remote;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The controlling terminal's size and raw mode, through {@code stty} on {@code /dev/tty}: what a
 * command forwarded on a pseudo-terminal needs so that the far program sees every key as typed
 * (Ctrl-C included, which then interrupts the far program) and lays itself out for this window.
 */
public interface TerminalControl {

    /** Columns and rows of the terminal, or null when it cannot tell. */
    int[] size();

    /** Puts the terminal in raw mode without echo; the returned action restores it. */
    Runnable enterRaw();

    /** No terminal: no size, raw mode does nothing. */
    TerminalControl NONE = new TerminalControl() {
        @Override
        public int[] size() {
            return null;
        }

        @Override
        public Runnable enterRaw() {
            return () -> { };
        }
    };

    /** The process's controlling terminal. */
    static TerminalControl system() {
        return new TerminalControl() {
            @Override
            public int[] size() {
                String[] words = stty("size").split("\\s+");
                try {
                    return words.length == 2 ? new int[] {Integer.parseInt(words[1]), Integer.parseInt(words[0])} : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }

            @Override
            public Runnable enterRaw() {
                String saved = stty("-g");
                if (saved.isEmpty()) {
                    return () -> { };
                }
                stty("raw", "-echo");
                return () -> stty(saved);
            }
        };
    }

    /** Runs {@code stty ARGS} on /dev/tty; its output, or "" when it failed. */
    private static String stty(String... args) {
        File tty = new File("/dev/tty");
        if (!tty.canRead()) {
            return "";
        }
        String[] command = new String[args.length + 1];
        command[0] = "stty";
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            Process stty = new ProcessBuilder(command).redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (InputStream out = stty.getInputStream()) {
                String text = new String(out.readAllBytes(), StandardCharsets.US_ASCII).strip();
                return stty.waitFor(2, TimeUnit.SECONDS) && stty.exitValue() == 0 ? text : "";
            }
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
