package dev.nvidb.tui;

/**
 * One thing the user did: a key (a character or a named key) or a mouse event at a cell
 * (0-based column and row). Decoded from the terminal's bytes by {@link InputDecoder}.
 *
 * @param kind      what happened
 * @param codePoint the character typed, for {@link Kind#CHAR}; 0 otherwise
 * @param column    the mouse column, for mouse kinds; -1 otherwise
 * @param row       the mouse row, for mouse kinds; -1 otherwise
 */
public record Input(Kind kind, int codePoint, int column, int row) {

    /** The keys and mouse events a screen can act on. */
    public enum Kind {
        CHAR, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END, TAB, BACK_TAB, ENTER, ESCAPE, BACKSPACE,
        DELETE, F6, CTRL_C, CLICK, WHEEL_UP, WHEEL_DOWN, RESIZE
    }

    public static Input key(Kind kind) {
        return new Input(kind, 0, -1, -1);
    }

    public static Input character(int codePoint) {
        return new Input(Kind.CHAR, codePoint, -1, -1);
    }

    public static Input mouse(Kind kind, int column, int row) {
        return new Input(kind, 0, column, row);
    }

    /** True for the character {@code c} typed. */
    public boolean is(char c) {
        return kind == Kind.CHAR && codePoint == c;
    }

    public boolean isMouse() {
        return kind == Kind.CLICK || kind == Kind.WHEEL_UP || kind == Kind.WHEEL_DOWN;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case CHAR -> "'" + new String(Character.toChars(codePoint)) + "'";
            case CLICK, WHEEL_UP, WHEEL_DOWN -> kind + "@" + column + "," + row;
            default -> kind.name();
        };
    }
}
