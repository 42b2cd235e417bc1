package dev.nvidb.tui;

import org.jline.utils.AttributedStyle;

/**
 * The colours both screens use, deliberately quiet: the terminal's own foreground for values,
 * grey for structure and secondary text, cyan for focus, yellow and red for what needs
 * attention, green only for a healthy running state. Only the sixteen ANSI colours, which a
 * terminal's theme adapts to its background, so dark and light terminals both read well;
 * a selection is reversed video for the same reason.
 */
public final class Palette {

    public static final AttributedStyle PLAIN = AttributedStyle.DEFAULT;
    public static final AttributedStyle BOLD = AttributedStyle.BOLD;
    public static final AttributedStyle DIM = AttributedStyle.DEFAULT.foreground(AttributedStyle.BRIGHT | AttributedStyle.BLACK);
    public static final AttributedStyle FOCUS = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    public static final AttributedStyle FOCUS_BOLD = FOCUS.bold();
    public static final AttributedStyle WARN = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
    public static final AttributedStyle ERROR = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    public static final AttributedStyle ERROR_BOLD = ERROR.bold();
    public static final AttributedStyle OK = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    /** Memory held by processes that are not this queue's. */
    public static final AttributedStyle FOREIGN = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
    /** Memory this queue's jobs hold or have reserved. */
    public static final AttributedStyle RESERVED = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
    public static final AttributedStyle FREE = DIM;
    /** A button in an action bar. */
    public static final AttributedStyle BUTTON = AttributedStyle.DEFAULT.inverse();
    /** A button that a second press will fire. */
    public static final AttributedStyle ARMED = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED).inverse();

    private Palette() {
    }
}
