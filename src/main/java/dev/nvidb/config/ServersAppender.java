package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.nodes.CollectionNode;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Adds servers to the text of a {@code config.yml} by inserting lines, so that comments, key order
 * and quoting elsewhere in the file stay exactly as the user wrote them. New items go right after
 * the last existing server, with the same indentation; without a {@code servers:} key one is
 * appended at the end of the file.
 */
final class ServersAppender {

    private final ServerRenderer renderer;

    ServersAppender(ServerRenderer renderer) {
        this.renderer = renderer;
    }

    /** The new text; {@code root} is the composed {@code text} (null when it has no content). */
    String append(String text, Node root, List<ServerConfig> servers, String displayName) {
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
        if (lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        NodeTuple serversEntry = root instanceof MappingNode mapping ? find(mapping, "servers") : null;
        if (root instanceof MappingNode mapping && mapping.getFlowStyle() == FlowStyle.FLOW) {
            throw new ConfigException(displayName + ": cannot add servers to a flow-style {...} file",
                    "rewrite the top level as block YAML (one 'key:' per line) and try again");
        }
        if (serversEntry == null) {
            lines.add("servers:");
            lines.addAll(items(servers, 2, 2));
        } else {
            insertIntoExisting(lines, serversEntry, servers, displayName);
        }
        return String.join(newline, lines) + newline;
    }

    private void insertIntoExisting(List<String> lines, NodeTuple entry, List<ServerConfig> servers, String display) {
        Node value = entry.getValueNode();
        int keyColumn = entry.getKeyNode().getStartMark().getColumn();
        if (value instanceof SequenceNode sequence && !sequence.getValue().isEmpty()) {
            if (sequence.getFlowStyle() == FlowStyle.FLOW) {
                throw new ConfigException(display + ":" + YamlDocument.line(value)
                        + ": cannot add servers to a flow-style [...] servers list",
                        "rewrite it as a block list ('- hostname: ...' lines) and try again");
            }
            Node first = sequence.getValue().get(0);
            int itemColumn = first.getStartMark().getColumn();
            int dashColumn = lines.get(first.getStartMark().getLine()).lastIndexOf('-', itemColumn - 1);
            List<Node> items = sequence.getValue();
            int after = lastLine(items.get(items.size() - 1));
            lines.addAll(after + 1, items(servers, Math.max(dashColumn, 0), Math.max(itemColumn - dashColumn, 2)));
            return;
        }
        if (value instanceof SequenceNode || YamlSection.isNull(value)) {
            // "servers:", "servers: ~" or "servers: []": drop the value text, keep any comment, add a block list.
            int line = value.getStartMark().getLine();
            if (value.getEndMark().getLine() != line) {
                throw new ConfigException(display + ":" + (line + 1) + ": cannot add servers to this servers value",
                        "write 'servers:' alone on its line and try again");
            }
            String text = lines.get(line);
            lines.set(line, text.substring(0, value.getStartMark().getColumn())
                    + text.substring(Math.min(text.length(), value.getEndMark().getColumn())));
            lines.addAll(line + 1, items(servers, keyColumn + 2, 2));
            return;
        }
        throw new ConfigException(display + ":" + YamlDocument.line(value) + ": 'servers' must be a list, got "
                + YamlSection.describe(value), "see config.example.yml");
    }

    private List<String> items(List<ServerConfig> servers, int dashColumn, int offset) {
        List<String> lines = new ArrayList<>();
        servers.forEach(server -> lines.addAll(renderer.lines(server, dashColumn, offset)));
        return lines;
    }

    private static NodeTuple find(MappingNode mapping, String key) {
        return mapping.getValue().stream()
                .filter(t -> t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(key))
                .findFirst().orElse(null);
    }

    /** The 0-based line holding the last character of {@code node}'s content. */
    static int lastLine(Node node) {
        if (node instanceof CollectionNode<?> collection && collection.getFlowStyle() != FlowStyle.FLOW) {
            if (node instanceof MappingNode mapping && !mapping.getValue().isEmpty()) {
                List<NodeTuple> tuples = mapping.getValue();
                NodeTuple last = tuples.get(tuples.size() - 1);
                return Math.max(lastLine(last.getKeyNode()), lastLine(last.getValueNode()));
            }
            if (node instanceof SequenceNode sequence && !sequence.getValue().isEmpty()) {
                return lastLine(sequence.getValue().get(sequence.getValue().size() - 1));
            }
        }
        int end = node.getEndMark().getLine();
        boolean endsAtLineStart = node.getEndMark().getColumn() == 0 && end > node.getStartMark().getLine();
        return endsAtLineStart ? end - 1 : end;
    }
}
