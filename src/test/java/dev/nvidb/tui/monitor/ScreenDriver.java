package dev.nvidb.tui.monitor;

import dev.nvidb.testing.FakeClock;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import java.util.ArrayList;
import java.util.List;

/** Drives a {@link MonitorScreen} as the session would: render, feed inputs, render again. */
final class ScreenDriver {

    final MonitorSamples.FixedSource source;
    final FakeClock clock = new FakeClock(MonitorSamples.NOW);
    final List<ViewSettings> saved = new ArrayList<>();
    final MonitorScreen screen;
    final int width;
    final int height;
    Frame frame;
    boolean running = true;

    ScreenDriver(List<NodeFeed> nodes, ViewSettings view, int width, int height) {
        this.source = new MonitorSamples.FixedSource(nodes);
        this.screen = new MonitorScreen(source, view, saved::add, clock);
        this.width = width;
        this.height = height;
        this.frame = screen.render(width, height);
    }

    static ScreenDriver lab(int width, int height) {
        return new ScreenDriver(MonitorSamples.lab(), ViewSettings.defaults(), width, height);
    }

    /** Types each character (or named key) and redraws after each. */
    ScreenDriver keys(Object... keys) {
        for (Object key : keys) {
            Input input = key instanceof Input.Kind kind ? Input.key(kind)
                    : key instanceof Input given ? given : Input.character(key.toString().codePointAt(0));
            if (key instanceof String text && text.length() > 1) {
                text.codePoints().forEach(c -> send(Input.character(c)));
                continue;
            }
            send(input);
        }
        return this;
    }

    private void send(Input input) {
        running = screen.handle(input, frame) && running;
        frame = screen.render(width, height);
    }

    /** Clicks the first cell showing {@code text}. */
    ScreenDriver click(String text) {
        List<String> lines = frame.text().lines().toList();
        for (int row = 0; row < lines.size(); row++) {
            int column = lines.get(row).indexOf(text);
            if (column >= 0) {
                send(Input.mouse(Input.Kind.CLICK, column, row));
                return this;
            }
        }
        throw new AssertionError("'" + text + "' is not on the screen:\n" + text());
    }

    /** Clicks {@code text} on the first line that also shows {@code lineWith}. */
    ScreenDriver click(String text, String lineWith) {
        List<String> lines = frame.text().lines().toList();
        for (int row = 0; row < lines.size(); row++) {
            if (lines.get(row).contains(lineWith) && lines.get(row).contains(text)) {
                send(Input.mouse(Input.Kind.CLICK, lines.get(row).indexOf(text), row));
                return this;
            }
        }
        throw new AssertionError("no line with '" + lineWith + "' and '" + text + "':\n" + text());
    }

    String text() {
        return frame.text();
    }

    MonitorState state() {
        return screen.state();
    }
}
