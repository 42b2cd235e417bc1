package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A YAML mapping checked against the keys its section allows: an unknown or repeated key fails at
 * construction, naming file, line and the closest valid key. Typed getters fail the same way when a
 * value has the wrong type, naming the type expected.
 */
final class YamlSection {

    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
    private static final List<String> TRUE = List.of("true", "yes", "on");
    private static final List<String> FALSE = List.of("false", "no", "off");

    private final YamlDocument document;
    private final MappingNode node;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

    /**
     * @param where    how the section is named in messages: {@code "in server 'gpu-a'"}, {@code "at the top level"}
     * @param keys     the valid keys
     * @param keyHint  the hint for an unknown key (usually lists the valid keys)
     */
    YamlSection(YamlDocument document, MappingNode node, String where, List<String> keys, String keyHint) {
        this.document = document;
        this.node = node;
        for (NodeTuple tuple : node.getValue()) {
            String key = keyOf(tuple.getKeyNode());
            if (!keys.contains(key)) {
                String suggestion = KeySuggester.closest(key, keys).map(k -> " (did you mean '" + k + "'?)").orElse("");
                throw error(tuple.getKeyNode(), "unknown key '" + key + "' " + where + suggestion, keyHint);
            }
            NodeTuple previous = entries.putIfAbsent(key, tuple);
            if (previous != null) {
                throw error(tuple.getKeyNode(), "duplicate key '" + key + "' " + where + " (first at line "
                        + YamlDocument.line(previous.getKeyNode()) + ")", "keep only one of them");
            }
        }
    }

    YamlDocument document() {
        return document;
    }

    MappingNode node() {
        return node;
    }

    boolean has(String key) {
        return entries.containsKey(key);
    }

    /** The value node of {@code key}, if present. */
    Optional<Node> value(String key) {
        return Optional.ofNullable(entries.get(key)).map(NodeTuple::getValueNode);
    }

    /** The key node of {@code key}; only valid when {@link #has} is true. */
    Node keyNode(String key) {
        return entries.get(key).getKeyNode();
    }

    /** A string value; a null value gives {@code fallback} too. Numbers and booleans are taken as written. */
    String string(String key, String fallback) {
        Optional<Node> value = value(key);
        if (value.isEmpty() || isNull(value.get())) {
            return fallback;
        }
        if (!(value.get() instanceof ScalarNode scalar)) {
            throw error(value.get(), "'" + key + "' must be a string, got " + describe(value.get()), null);
        }
        return scalar.getValue();
    }

    /** An integer in {@code [min, max]}; null is allowed only when {@code fallback} is null. */
    Integer integer(String key, int min, int max, Integer fallback) {
        Optional<Node> value = value(key);
        if (value.isEmpty()) {
            return fallback;
        }
        if (isNull(value.get()) && fallback == null) {
            return null;
        }
        String expected = "'" + key + "' must be " + integerRange(min, max);
        if (!(value.get() instanceof ScalarNode scalar) || !INTEGER.matcher(scalar.getValue()).matches()) {
            throw error(value.get(), expected + ", got " + describe(value.get()), null);
        }
        long number;
        try {
            number = Long.parseLong(scalar.getValue());
        } catch (NumberFormatException e) {
            number = Long.MAX_VALUE;
        }
        if (number < min || number > max) {
            throw error(value.get(), expected + ", got " + scalar.getValue(), null);
        }
        return (int) number;
    }

    /** A boolean ({@code true/false}, also {@code yes/no/on/off}); null is allowed only when {@code fallback} is null. */
    Boolean bool(String key, Boolean fallback) {
        Optional<Node> value = value(key);
        if (value.isEmpty()) {
            return fallback;
        }
        if (isNull(value.get()) && fallback == null) {
            return null;
        }
        if (value.get() instanceof ScalarNode scalar) {
            String text = scalar.getValue().toLowerCase(Locale.ROOT);
            if (TRUE.contains(text)) {
                return true;
            }
            if (FALSE.contains(text)) {
                return false;
            }
        }
        throw error(value.get(), "'" + key + "' must be true or false, got " + describe(value.get()), null);
    }

    /** A nested section, if the key is present with a mapping (or an empty value). */
    Optional<YamlSection> section(String key, String where, List<String> keys, String keyHint) {
        Optional<Node> value = value(key);
        if (value.isEmpty() || isNull(value.get())) {
            return Optional.empty();
        }
        if (!(value.get() instanceof MappingNode mapping)) {
            throw error(value.get(), "'" + key + "' must be a mapping of settings, got " + describe(value.get()),
                    keyHint);
        }
        return Optional.of(new YamlSection(document, mapping, where, keys, keyHint));
    }

    /** A list value; an empty value is an empty list. */
    Optional<List<Node>> list(String key, String example) {
        Optional<Node> value = value(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if (isNull(value.get())) {
            return Optional.of(List.of());
        }
        if (!(value.get() instanceof SequenceNode sequence)) {
            throw error(value.get(), "'" + key + "' must be a list, got " + describe(value.get()), example);
        }
        return Optional.of(sequence.getValue());
    }

    ConfigException error(Node at, String message, String hint) {
        return document.error(at, message, hint);
    }

    static boolean isNull(Node node) {
        return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
    }

    /** How a value reads in an error message: {@code "twenty"}, {@code 5}, {@code a list}. */
    static String describe(Node node) {
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (isNull(node)) {
            return "nothing";
        }
        String text = ((ScalarNode) node).getValue();
        return "\"" + (text.length() > 60 ? text.substring(0, 57) + "..." : text).replace("\n", "\\n") + "\"";
    }

    static String integerRange(int min, int max) {
        if (max == Integer.MAX_VALUE) {
            return min == 0 ? "a non-negative integer" : "an integer of at least " + min;
        }
        return "an integer between " + min + " and " + max;
    }

    private ConfigException keyError(Node key) {
        return error(key, "keys must be plain names, got " + describe(key), null);
    }

    private String keyOf(Node key) {
        if (!(key instanceof ScalarNode scalar) || isNull(key)) {
            throw keyError(key);
        }
        return scalar.getValue();
    }
}
