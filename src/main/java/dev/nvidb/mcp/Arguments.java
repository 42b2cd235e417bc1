package dev.nvidb.mcp;

import dev.nvidb.error.UsageException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool call's arguments, checked against the tool's {@link InputSchema} before anything runs:
 * an unknown name, a wrong type, a number out of bounds, a string not among the choices or a
 * missing required argument is one usage error naming the tool and the argument.
 */
final class Arguments {

    private final String tool;
    private final Map<String, Object> values;

    private Arguments(String tool, Map<String, Object> values) {
        this.tool = tool;
        this.values = values;
    }

    /** The checked arguments of one call ({@code given} may be null: no arguments). */
    static Arguments check(String tool, InputSchema schema, Map<String, Object> given) {
        Map<String, Object> values = given == null ? Map.of() : given;
        for (String name : values.keySet()) {
            if (!schema.properties().containsKey(name)) {
                throw new UsageException(tool + ": unknown argument '" + name + "'",
                        "arguments of " + tool + ": " + String.join(", ", schema.properties().keySet()));
            }
        }
        for (String name : schema.required()) {
            if (values.get(name) == null) {
                throw new UsageException(tool + ": argument '" + name + "' is required");
            }
        }
        Arguments arguments = new Arguments(tool, values);
        schema.properties().values().forEach(arguments::checkOne);
        return arguments;
    }

    private void checkOne(InputSchema.Property property) {
        Object value = values.get(property.name());
        if (value == null) {
            return;
        }
        switch (property.kind()) {
            case STRING -> {
                String text = text(property.name(), value);
                if (!property.choices().isEmpty() && !property.choices().contains(text)) {
                    throw bad(property.name(), "'" + text + "' is not one of " + String.join(", ", property.choices()));
                }
            }
            case INTEGER -> inRange(property, whole(property.name(), value));
            case NUMBER -> inRange(property, number(property.name(), value).doubleValue());
            case BOOLEAN -> {
                if (!(value instanceof Boolean)) {
                    throw bad(property.name(), "must be true or false");
                }
            }
            case INTEGERS -> {
                for (Object item : list(property.name(), value)) {
                    if (whole(property.name(), item) < 1) {
                        throw bad(property.name(), "holds " + item + "; ids are 1 or more");
                    }
                }
            }
            case STRINGS -> list(property.name(), value).forEach(item -> text(property.name(), item));
            case STRING_MAP -> {
                if (!(value instanceof Map<?, ?> map)) {
                    throw bad(property.name(), "must be an object of strings");
                }
                map.values().forEach(item -> text(property.name(), item));
            }
        }
    }

    boolean has(String name) {
        return values.get(name) != null;
    }

    String string(String name) {
        Object value = values.get(name);
        return value == null ? null : (String) value;
    }

    String string(String name, String otherwise) {
        return has(name) ? string(name) : otherwise;
    }

    Long longValue(String name) {
        Object value = values.get(name);
        return value == null ? null : whole(name, value);
    }

    long longValue(String name, long otherwise) {
        return has(name) ? whole(name, values.get(name)) : otherwise;
    }

    int intValue(String name, int otherwise) {
        return (int) longValue(name, otherwise);
    }

    double doubleValue(String name, double otherwise) {
        return has(name) ? number(name, values.get(name)).doubleValue() : otherwise;
    }

    boolean bool(String name) {
        return Boolean.TRUE.equals(values.get(name));
    }

    List<Long> ids(String name) {
        List<Long> ids = new ArrayList<>();
        if (has(name)) {
            list(name, values.get(name)).forEach(item -> ids.add(whole(name, item)));
        }
        return ids;
    }

    List<String> strings(String name) {
        List<String> strings = new ArrayList<>();
        if (has(name)) {
            list(name, values.get(name)).forEach(item -> strings.add((String) item));
        }
        return strings;
    }

    Map<String, String> stringMap(String name) {
        Map<String, String> map = new LinkedHashMap<>();
        if (has(name)) {
            ((Map<?, ?>) values.get(name)).forEach((key, value) -> map.put(String.valueOf(key), (String) value));
        }
        return map;
    }

    /** The arguments as given, for an operation's digest. */
    Map<String, Object> asGiven() {
        return values;
    }

    private void inRange(InputSchema.Property property, double value) {
        if (value < property.min() || value > property.max()) {
            throw bad(property.name(), "is " + plain(value) + "; it must be between " + plain(property.min())
                    + " and " + plain(property.max()));
        }
    }

    private static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    private String text(String name, Object value) {
        if (!(value instanceof String text)) {
            throw bad(name, "must be a string" + (value instanceof java.util.Collection<?> ? "" : ", got " + value));
        }
        return text;
    }

    private long whole(String name, Object value) {
        BigDecimal number = new BigDecimal(number(name, value).toString());
        try {
            return number.longValueExact();
        } catch (ArithmeticException e) {
            throw bad(name, "must be a whole number, got " + value);
        }
    }

    private Number number(String name, Object value) {
        if (!(value instanceof Number number) || value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            throw bad(name, "must be a number, got " + (value instanceof String text ? "'" + text + "'" : value));
        }
        return number;
    }

    private List<?> list(String name, Object value) {
        if (!(value instanceof List<?> list)) {
            throw bad(name, "must be a list");
        }
        return list;
    }

    private UsageException bad(String name, String what) {
        return new UsageException(tool + ": argument '" + name + "' " + what);
    }
}
