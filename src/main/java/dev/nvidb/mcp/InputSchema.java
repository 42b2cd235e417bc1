package dev.nvidb.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's arguments, declared once: the JSON schema an MCP client is shown, and the rules
 * {@link Arguments} checks a call against (names, types, bounds, choices, required), so the two
 * cannot disagree. Every schema refuses arguments it does not name.
 */
final class InputSchema {

    /** The kinds of value a tool takes. */
    enum Kind {
        STRING, INTEGER, NUMBER, BOOLEAN, INTEGERS, STRINGS, STRING_MAP
    }

    /** One argument: its kind, description, inclusive bounds for numbers (or null), choices for strings (or empty). */
    record Property(String name, Kind kind, String description, Double min, Double max, List<String> choices) {
    }

    private final Map<String, Property> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    InputSchema string(String name, String description) {
        return add(new Property(name, Kind.STRING, description, null, null, List.of()));
    }

    InputSchema choice(String name, String description, String... choices) {
        return add(new Property(name, Kind.STRING, description, null, null, List.of(choices)));
    }

    InputSchema integer(String name, String description, long min, long max) {
        return add(new Property(name, Kind.INTEGER, description, (double) min, (double) max, List.of()));
    }

    InputSchema number(String name, String description, double min, double max) {
        return add(new Property(name, Kind.NUMBER, description, min, max, List.of()));
    }

    InputSchema bool(String name, String description) {
        return add(new Property(name, Kind.BOOLEAN, description, null, null, List.of()));
    }

    /** A list of whole numbers, each at least 1 (job and alert ids). */
    InputSchema ids(String name, String description) {
        return add(new Property(name, Kind.INTEGERS, description, 1.0, null, List.of()));
    }

    InputSchema strings(String name, String description) {
        return add(new Property(name, Kind.STRINGS, description, null, null, List.of()));
    }

    /** An object of string values (environment variables). */
    InputSchema stringMap(String name, String description) {
        return add(new Property(name, Kind.STRING_MAP, description, null, null, List.of()));
    }

    InputSchema require(String... names) {
        for (String name : names) {
            if (!properties.containsKey(name)) {
                throw new IllegalArgumentException("no property " + name);
            }
            required.add(name);
        }
        return this;
    }

    Map<String, Property> properties() {
        return properties;
    }

    List<String> required() {
        return required;
    }

    /** The JSON schema (draft 2020-12 vocabulary) as the maps the SDK sends. */
    Map<String, Object> toMap() {
        Map<String, Object> props = new LinkedHashMap<>();
        properties.values().forEach(property -> props.put(property.name(), describe(property)));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", props);
        if (!required.isEmpty()) {
            schema.put("required", List.copyOf(required));
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    private static Map<String, Object> describe(Property property) {
        Map<String, Object> schema = new LinkedHashMap<>();
        switch (property.kind()) {
            case STRING -> schema.put("type", "string");
            case INTEGER -> schema.put("type", "integer");
            case NUMBER -> schema.put("type", "number");
            case BOOLEAN -> schema.put("type", "boolean");
            case INTEGERS -> {
                schema.put("type", "array");
                schema.put("items", Map.of("type", "integer", "minimum", 1));
            }
            case STRINGS -> {
                schema.put("type", "array");
                schema.put("items", Map.of("type", "string"));
            }
            case STRING_MAP -> {
                schema.put("type", "object");
                schema.put("additionalProperties", Map.of("type", "string"));
            }
        }
        if (property.kind() == Kind.INTEGER || property.kind() == Kind.NUMBER) {
            schema.put("minimum", bound(property.kind(), property.min()));
            schema.put("maximum", bound(property.kind(), property.max()));
        }
        if (!property.choices().isEmpty()) {
            schema.put("enum", property.choices());
        }
        schema.put("description", property.description());
        return schema;
    }

    private static Object bound(Kind kind, double value) {
        return kind == Kind.INTEGER ? (Object) (long) value : (Object) value;
    }

    private InputSchema add(Property property) {
        properties.put(property.name(), property);
        return this;
    }
}
