package dev.nvidb.tui;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the characters a terminal sends into {@link Input}s: printable characters, control
 * keys, CSI and SS3 sequences (arrows, paging, Home/End, F6, Shift-Tab, also with modifiers)
 * and mouse reports in both the SGR ({@code ESC [ < b ; x ; y M}) and the legacy X10
 * ({@code ESC [ M b x y}) encodings. Pure: the session feeds it what it read and tells it
 * when the line went quiet, which is what separates a lone Esc from the start of a sequence.
 */
public final class InputDecoder {

    private static final char ESC = 27;

    private final StringBuilder pending = new StringBuilder();

    /** Adds characters read from the terminal. */
    public void feed(CharSequence chars) {
        pending.append(chars);
    }

    /** Adds one character (or code point) read from the terminal. */
    public void feed(int codePoint) {
        pending.appendCodePoint(codePoint);
    }

    /**
     * The inputs that are complete. With {@code quiet} (no more characters arrived in a short
     * while) an unfinished escape sequence is given up: a lone Esc is the Esc key, the rest of
     * an unknown sequence is dropped.
     */
    public List<Input> drain(boolean quiet) {
        List<Input> inputs = new ArrayList<>();
        int at = 0;
        while (at < pending.length()) {
            int used = decode(at, inputs, quiet);
            if (used == 0) {
                break;  // an unfinished sequence: wait for more
            }
            at += used;
        }
        pending.delete(0, at);
        return inputs;
    }

    /** True while characters wait for the rest of their sequence. */
    public boolean waiting() {
        return pending.length() > 0;
    }

    /** Decodes one input at {@code at}; the characters it used, 0 when it needs more. */
    private int decode(int at, List<Input> inputs, boolean quiet) {
        char c = pending.charAt(at);
        if (c != ESC) {
            int codePoint = Character.codePointAt(pending, at);
            Input input = control(codePoint);
            if (input != null) {
                inputs.add(input);
            }
            return Character.charCount(codePoint);
        }
        if (at + 1 >= pending.length()) {
            if (quiet) {
                inputs.add(Input.key(Input.Kind.ESCAPE));
                return 1;
            }
            return 0;
        }
        char next = pending.charAt(at + 1);
        if (next == '[') {
            return csi(at, inputs, quiet);
        }
        if (next == 'O') {
            if (at + 2 >= pending.length()) {
                return quiet ? drop(at, inputs) : 0;
            }
            Input input = finalKey(pending.charAt(at + 2), "");
            if (input != null) {
                inputs.add(input);
            }
            return 3;
        }
        inputs.add(Input.key(Input.Kind.ESCAPE));  // Esc followed by a key (Alt+key): both count
        return 1;
    }

    /** An unfinished sequence given up on a quiet line: Esc, and its remains dropped. */
    private int drop(int at, List<Input> inputs) {
        inputs.add(Input.key(Input.Kind.ESCAPE));
        return pending.length() - at;
    }

    private int csi(int at, List<Input> inputs, boolean quiet) {
        int i = at + 2;
        if (i < pending.length() && pending.charAt(i) == 'M') {
            if (i + 3 >= pending.length()) {
                return quiet ? drop(at, inputs) : 0;
            }
            int button = pending.charAt(i + 1) - 32;
            int column = pending.charAt(i + 2) - 33;
            int row = pending.charAt(i + 3) - 33;
            Input input = mouse(button, column, row, true);
            if (input != null) {
                inputs.add(input);
            }
            return i + 4 - at;
        }
        int paramsStart = i;
        while (i < pending.length() && pending.charAt(i) >= 0x20 && pending.charAt(i) <= 0x3f) {
            i++;
        }
        if (i >= pending.length()) {
            return quiet ? drop(at, inputs) : 0;
        }
        char last = pending.charAt(i);
        String params = pending.substring(paramsStart, i);
        int used = i + 1 - at;
        if (last < 0x40 || last > 0x7e) {
            return used;  // malformed: drop it
        }
        if (params.startsWith("<") && (last == 'M' || last == 'm')) {
            String[] fields = params.substring(1).split(";");
            if (fields.length == 3 && last == 'M') {
                try {
                    Input input = mouse(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]) - 1,
                            Integer.parseInt(fields[2]) - 1, true);
                    if (input != null) {
                        inputs.add(input);
                    }
                } catch (NumberFormatException e) {
                    // not a mouse report after all: dropped
                }
            }
            return used;
        }
        Input input = finalKey(last, params);
        if (input != null) {
            inputs.add(input);
        }
        return used;
    }

    private static Input mouse(int button, int column, int row, boolean press) {
        if (!press || (button & 32) != 0) {
            return null;  // releases and drags are not acted on
        }
        int base = button & ~(4 | 8 | 16);  // without Shift, Meta, Ctrl
        return switch (base) {
            case 0 -> Input.mouse(Input.Kind.CLICK, column, row);
            case 64 -> Input.mouse(Input.Kind.WHEEL_UP, column, row);
            case 65 -> Input.mouse(Input.Kind.WHEEL_DOWN, column, row);
            default -> null;
        };
    }

    /** The key of a CSI or SS3 sequence ending in {@code last} with {@code params}, or null. */
    private static Input finalKey(char last, String params) {
        String first = params.contains(";") ? params.substring(0, params.indexOf(';')) : params;
        Input.Kind kind = switch (last) {
            case 'A' -> Input.Kind.UP;
            case 'B' -> Input.Kind.DOWN;
            case 'C' -> Input.Kind.RIGHT;
            case 'D' -> Input.Kind.LEFT;
            case 'H' -> Input.Kind.HOME;
            case 'F' -> Input.Kind.END;
            case 'Z' -> Input.Kind.BACK_TAB;
            case '~' -> switch (first) {
                case "1", "7" -> Input.Kind.HOME;
                case "4", "8" -> Input.Kind.END;
                case "3" -> Input.Kind.DELETE;
                case "5" -> Input.Kind.PAGE_UP;
                case "6" -> Input.Kind.PAGE_DOWN;
                case "17" -> Input.Kind.F6;
                default -> null;
            };
            default -> null;
        };
        return kind == null ? null : Input.key(kind);
    }

    private static Input control(int codePoint) {
        return switch (codePoint) {
            case '\r', '\n' -> Input.key(Input.Kind.ENTER);
            case '\t' -> Input.key(Input.Kind.TAB);
            case 127, 8 -> Input.key(Input.Kind.BACKSPACE);
            case 3 -> Input.key(Input.Kind.CTRL_C);
            default -> codePoint < 32 ? null : Input.character(codePoint);
        };
    }
}
