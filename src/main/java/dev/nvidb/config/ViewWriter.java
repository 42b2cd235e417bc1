package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Writes the monitor TUI's layout keys into the {@code view:} section of {@code config.yml}, the
 * way {@link ConfigWriter} adds servers: by editing lines, so comments (a key's trailing comment
 * included), key order and every other section stay exactly as they were. A key that exists has
 * its value replaced on its line; a missing key is added at the end of the section; a missing
 * section is appended. The result must load with the strict loader, hold exactly the new view
 * values and leave everything else equal, before it replaces the file atomically.
 */
public final class ViewWriter {

    private final NvidbHome home;

    public ViewWriter(NvidbHome home) {
        this.home = home;
    }

    /** Sets {@code values} (view key to plain YAML scalar, e.g. {@code mode: unified}) in {@code configYml}. */
    public void write(Path configYml, Map<String, String> values) {
        for (String key : values.keySet()) {
            if (!ConfigSchema.VIEW_KEYS.contains(key)) {
                throw new IllegalArgumentException("not a view key: " + key);
            }
        }
        if (values.isEmpty()) {
            return;
        }
        String display = home.display(configYml);
        try {
            AtomicFile.createDirectories(configYml.toAbsolutePath().getParent());
            Path lockFile = configYml.resolveSibling("." + configYml.getFileName() + ".lock");
            try (FileChannel lock = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lock.lock();
                String text = read(configYml);
                String updated = update(text, values, configYml, display);
                verify(text, updated, values, configYml, display);
                if (!updated.equals(text)) {
                    AtomicFile.replace(configYml, updated);
                }
            }
        } catch (IOException e) {
            throw new ConfigException("cannot write " + display + ": " + e.getMessage(),
                    "check that the directory exists and is writable", e);
        }
    }

    /** The text with {@code values} set in its view section. */
    String update(String text, Map<String, String> values, Path file, String display) {
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
        if (lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        Node root = YamlDocument.parse(text, file, display).root();
        if (root != null && !(root instanceof MappingNode)) {
            throw new ConfigException(display + ": the top level is not a mapping", "see config.example.yml");
        }
        MappingNode top = (MappingNode) root;
        if (top != null && top.getFlowStyle() == FlowStyle.FLOW) {
            throw new ConfigException(display + ": cannot write the view section into a flow-style {...} file",
                    "rewrite the top level as block YAML");
        }
        NodeTuple view = top == null ? null : find(top, "view");
        if (view == null) {
            if (!lines.isEmpty() && !lines.get(lines.size() - 1).isBlank()) {
                lines.add("");
            }
            lines.add("view:");
            values.forEach((key, value) -> lines.add("  " + key + ": " + value));
            return String.join(newline, lines) + newline;
        }
        Node value = view.getValueNode();
        if (value instanceof MappingNode mapping && mapping.getFlowStyle() != FlowStyle.FLOW
                && !mapping.getValue().isEmpty()) {
            int indent = mapping.getValue().get(0).getKeyNode().getStartMark().getColumn();
            int after = ServersAppender.lastLine(mapping);
            List<String> added = new ArrayList<>();
            for (Map.Entry<String, String> entry : values.entrySet()) {
                NodeTuple existing = find(mapping, entry.getKey());
                if (existing == null) {
                    added.add(" ".repeat(indent) + entry.getKey() + ": " + entry.getValue());
                } else {
                    replaceValue(lines, existing, entry.getValue(), display);
                }
            }
            lines.addAll(after + 1, added);
            return String.join(newline, lines) + newline;
        }
        if (YamlSection.isNull(value) || value instanceof MappingNode empty && empty.getValue().isEmpty()) {
            // "view:", "view: ~" or "view: {}": drop the value text, keep any comment, add the keys below.
            int keyLine = view.getKeyNode().getStartMark().getLine();
            int line = value.getStartMark().getLine();
            if (line == keyLine && value.getEndMark().getLine() == line) {
                String current = lines.get(line);
                lines.set(line, current.substring(0, value.getStartMark().getColumn())
                        + current.substring(Math.min(current.length(), value.getEndMark().getColumn())));
            }
            int keyColumn = view.getKeyNode().getStartMark().getColumn();
            List<String> added = new ArrayList<>();
            values.forEach((key, scalar) -> added.add(" ".repeat(keyColumn + 2) + key + ": " + scalar));
            lines.addAll(keyLine + 1, added);
            return String.join(newline, lines) + newline;
        }
        throw new ConfigException(display + ":" + YamlDocument.line(value) + ": 'view' is not a block of keys",
                "write it as 'view:' with one 'key: value' per line");
    }

    /** Replaces a scalar value in place, keeping what follows it on the line (a comment). */
    private static void replaceValue(List<String> lines, NodeTuple tuple, String value, String display) {
        Node node = tuple.getValueNode();
        int line = node.getStartMark().getLine();
        if (!(node instanceof ScalarNode) || node.getEndMark().getLine() != line) {
            throw new ConfigException(display + ":" + (line + 1) + ": view." + ((ScalarNode) tuple.getKeyNode()).getValue()
                    + " is not a one-line value", "write it as 'key: value' on one line");
        }
        String text = lines.get(line);
        int from = node.getStartMark().getColumn();
        int to = node.getEndMark().getColumn();
        if (from == to) {
            // an empty value ("mode:"): put the value after the colon
            lines.set(line, text.substring(0, from) + (from > 0 && text.charAt(from - 1) == ':' ? " " : "") + value
                    + text.substring(from));
            return;
        }
        lines.set(line, text.substring(0, from) + value + text.substring(Math.min(text.length(), to)));
    }

    /** The new text must load, hold the new view values and change nothing else. */
    private void verify(String before, String after, Map<String, String> values, Path file, String display) {
        ConfigLoader loader = new ConfigLoader(home, Map.of());
        NvidbConfig old = loader.parseConfigYml(file, before);
        NvidbConfig fresh;
        try {
            fresh = loader.parseConfigYml(file, after);
        } catch (ConfigException e) {
            throw new ConfigException("refusing to write " + display + ": the result would not load: " + e.getMessage(),
                    "edit the view section by hand; see config.example.yml", e);
        }
        boolean sameRest = old.basic().equals(fresh.basic()) && old.monitorServers().equals(fresh.monitorServers())
                && old.queue().equals(fresh.queue());
        Map<String, String> written = new java.util.LinkedHashMap<>();
        YamlDocument document = YamlDocument.parse(after, file, display);
        NodeTuple view = find((MappingNode) document.root(), "view");
        for (String key : values.keySet()) {
            NodeTuple tuple = view == null || !(view.getValueNode() instanceof MappingNode mapping) ? null
                    : find(mapping, key);
            written.put(key, tuple != null && tuple.getValueNode() instanceof ScalarNode scalar ? scalar.getValue() : null);
        }
        if (!sameRest || !written.equals(values)) {
            throw new ConfigException("refusing to write " + display + ": the result would change more than the view",
                    "edit the view section by hand; see config.example.yml");
        }
    }

    private static NodeTuple find(MappingNode mapping, String key) {
        return mapping.getValue().stream()
                .filter(t -> t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(key))
                .findFirst().orElse(null);
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }
}
