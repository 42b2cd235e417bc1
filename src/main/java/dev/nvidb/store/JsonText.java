package dev.nvidb.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON codec for the store's own JSON columns (env, tags, GPU lists, event details).
 * Jackson stays in {@code output}; these columns only hold flat strings, numbers and lists, so
 * a strict hand-written reader is enough. Anything else is an {@link IllegalArgumentException}.
 */
final class JsonText {

    private final String text;
    private int at;

    private JsonText(String text) {
        this.text = text;
    }

    /** Writes strings, numbers, booleans, null, lists and string-keyed maps (insertion order kept). */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** Reads one JSON value: String, Long, Double, Boolean, null, List or Map (in document order). */
    static Object read(String json) {
        JsonText reader = new JsonText(json);
        Object value = reader.value();
        reader.skipSpace();
        if (reader.at != json.length()) {
            throw reader.error("trailing text");
        }
        return value;
    }

    static Map<String, String> readStringMap(String json) {
        Map<String, String> map = new LinkedHashMap<>();
        ((Map<?, ?>) read(json)).forEach((key, value) -> map.put((String) key, (String) value));
        return map;
    }

    static List<String> readStrings(String json) {
        List<String> list = new ArrayList<>();
        for (Object item : (List<?>) read(json)) {
            list.add((String) item);
        }
        return list;
    }

    static List<Integer> readInts(String json) {
        List<Integer> list = new ArrayList<>();
        for (Object item : (List<?>) read(json)) {
            list.add(Math.toIntExact((Long) item));
        }
        return list;
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null || value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof String string) {
            quote(string, out);
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? "," : "");
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(separator);
                quote((String) entry.getKey(), out);
                out.append(':');
                write(entry.getValue(), out);
                separator = ",";
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON");
        }
    }

    private static void quote(String string, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < string.length(); i++) {
            char c = string.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw error("value expected");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '"' -> string();
            case '[' -> list();
            case '{' -> object();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private List<Object> list() {
        List<Object> list = new ArrayList<>();
        at++;
        skipSpace();
        if (peek(']')) {
            return list;
        }
        do {
            list.add(value());
            skipSpace();
        } while (peek(','));
        expect(']');
        return list;
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek('}')) {
            return map;
        }
        do {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            map.put(key, value());
            skipSpace();
        } while (peek(','));
        expect('}');
        return map;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = at < text.length() ? text.charAt(at++) : 0;
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> out.append(unicode());
                default -> throw error("bad escape");
            }
        }
        throw error("unterminated string");
    }

    private char unicode() {
        if (at + 4 > text.length()) {
            throw error("bad \\u escape");
        }
        char c = (char) Integer.parseInt(text.substring(at, at + 4), 16);
        at += 4;
        return c;
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String number = text.substring(start, at);
        if (number.isEmpty()) {
            throw error("unexpected character");
        }
        try {
            return number.matches("-?\\d+") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw error("bad number");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("unexpected character");
        }
        at += word.length();
        return value;
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON in queue.db at offset " + at + ": " + what);
    }
}
