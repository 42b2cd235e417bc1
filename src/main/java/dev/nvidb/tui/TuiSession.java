package dev.nvidb.tui;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.InfoCmp;
import org.jline.utils.NonBlockingReader;

/**
 * A full-screen session on the user's terminal: the alternate screen, raw input, a hidden
 * cursor and (unless turned off) mouse reporting, all undone by {@link #close()} however the
 * session ends — {@code q}, Ctrl-C, an error, or the JVM being asked to stop. The input
 * loop runs on the calling thread and never waits on anything but the keyboard: a
 * {@link Screen} gets its data from its own worker and says so through {@link Screen#version()}.
 * Frames are drawn by {@link ScreenWriter}, which rewrites only the rows that changed, so a
 * redraw does not flicker.
 */
public final class TuiSession implements AutoCloseable {

    /** Exit status when the session was left with Ctrl-C, as for every interrupted command. */
    public static final int INTERRUPTED = 130;

    private static final long IDLE_WAIT_MS = 100;
    private static final long SEQUENCE_WAIT_MS = 30;
    private static final String MOUSE_ON = "\033[?1000h\033[?1006h";
    private static final String MOUSE_OFF = "\033[?1006l\033[?1000l";

    /** What a session shows and how it reacts. */
    public interface Screen {

        /** The frame for a terminal of {@code width} × {@code height}. */
        Frame render(int width, int height);

        /**
         * Acts on one input; {@code shown} is the frame on screen (for mouse targets).
         *
         * @return false to end the session
         */
        boolean handle(Input input, Frame shown);

        /** Changes whenever something worth redrawing arrived from elsewhere (a worker). */
        long version();
    }

    private final Terminal terminal;
    private final Attributes original;
    private final boolean mouse;
    private final AtomicBoolean resized = new AtomicBoolean();
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread restoreOnExit;

    private TuiSession(Terminal terminal, boolean mouse) {
        this.terminal = terminal;
        this.mouse = mouse;
        this.original = terminal.enterRawMode();
        Attributes raw = terminal.getAttributes();
        raw.setLocalFlag(Attributes.LocalFlag.ISIG, false);  // Ctrl-C and Ctrl-Z arrive as keys
        terminal.setAttributes(raw);
        terminal.handle(Terminal.Signal.WINCH, signal -> resized.set(true));
        terminal.handle(Terminal.Signal.INT, signal -> interrupted.set(true));
        terminal.puts(InfoCmp.Capability.enter_ca_mode);
        terminal.puts(InfoCmp.Capability.keypad_xmit);
        terminal.puts(InfoCmp.Capability.cursor_invisible);
        if (mouse) {
            terminal.writer().write(MOUSE_ON);
        }
        terminal.flush();
        restoreOnExit = new Thread(this::restore, "tui-restore");
        Runtime.getRuntime().addShutdownHook(restoreOnExit);
    }

    /**
     * Opens a session on the process's terminal.
     *
     * @param mouse whether to turn mouse reporting on ({@code view.mouse})
     * @throws NotATerminal when there is no terminal to draw on
     */
    public static TuiSession open(boolean mouse) throws IOException {
        if (System.console() == null) {
            throw new NotATerminal();
        }
        // Box-drawing characters as themselves, not through the terminal's alternate character set.
        System.setProperty("org.jline.utils.disableAlternateCharset", "true");
        Terminal terminal = TerminalBuilder.builder().system(true).nativeSignals(true)
                .encoding(java.nio.charset.StandardCharsets.UTF_8)
                .signalHandler(Terminal.SignalHandler.SIG_IGN).build();
        if (Terminal.TYPE_DUMB.equals(terminal.getType()) || Terminal.TYPE_DUMB_COLOR.equals(terminal.getType())) {
            terminal.close();
            throw new NotATerminal();
        }
        return new TuiSession(terminal, mouse);
    }

    /** Thrown when the output is not a terminal a full-screen view can use. */
    public static final class NotATerminal extends IOException {
        NotATerminal() {
            super("not a terminal");
        }
    }

    /**
     * Runs {@code screen} until it asks to stop (0) or the user presses Ctrl-C ({@link #INTERRUPTED}).
     */
    public int run(Screen screen) throws IOException {
        NonBlockingReader reader = terminal.reader();
        InputDecoder decoder = new InputDecoder();
        ScreenWriter writer = new ScreenWriter(terminal);
        Size size = terminal.getSize();
        Frame shown = null;
        long drawn = Long.MIN_VALUE;
        boolean dirty = true;
        while (true) {
            if (interrupted.get()) {
                return INTERRUPTED;
            }
            if (resized.getAndSet(false)) {
                size = terminal.getSize();
                writer.invalidate();
                dirty = true;
            }
            long version = screen.version();
            if (dirty || version != drawn || shown == null) {
                int width = Math.max(1, size.getColumns());
                int height = Math.max(1, size.getRows());
                shown = screen.render(width, height);
                writer.draw(shown.lines(), width, height);
                drawn = version;
                dirty = false;
            }
            int c = reader.read(decoder.waiting() ? SEQUENCE_WAIT_MS : IDLE_WAIT_MS);
            if (c == NonBlockingReader.EOF) {
                return 0;  // the terminal went away
            }
            int count = 0;
            while (c >= 0 && count++ < 4096) {
                decoder.feed(c);
                c = reader.read(1L);
            }
            List<Input> inputs = decoder.drain(c == NonBlockingReader.READ_EXPIRED);
            for (Input input : inputs) {
                if (input.kind() == Input.Kind.CTRL_C) {
                    return INTERRUPTED;
                }
                if (input.isMouse() && !mouse) {
                    continue;
                }
                if (!screen.handle(input, shown)) {
                    return 0;
                }
                dirty = true;
            }
        }
    }

    @Override
    public void close() {
        restore();
        try {
            Runtime.getRuntime().removeShutdownHook(restoreOnExit);
        } catch (IllegalStateException e) {
            // the JVM is already stopping: the hook runs (and finds the work done)
        }
        try {
            terminal.close();
        } catch (IOException e) {
            // nothing left to restore
        }
    }

    /** Puts the terminal back as it was; once, whoever gets here first. */
    private void restore() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (mouse) {
            terminal.writer().write(MOUSE_OFF);
        }
        terminal.puts(InfoCmp.Capability.cursor_visible);
        terminal.puts(InfoCmp.Capability.keypad_local);
        terminal.puts(InfoCmp.Capability.exit_ca_mode);
        terminal.flush();
        terminal.setAttributes(original);
    }
}
