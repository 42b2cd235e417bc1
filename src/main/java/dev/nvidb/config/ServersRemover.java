package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Removes items of the top-level {@code servers:} list from a YAML file's text by cutting out
 * the lines each item spans, from its {@code -} to its last line of content. Every other byte
 * stays as it was: comments (those above an item, or after its last key, included), blank
 * lines, line endings, a missing final newline. A list left empty reads as no servers.
 */
final class ServersRemover {

    private ServersRemover() {
    }

    /** {@code text} without the servers at {@code indices} (0-based, in file order); {@code root} is the composed text. */
    static String remove(String text, Node root, Set<Integer> indices, String display) {
        if (indices.isEmpty()) {
            return text;
        }
        SequenceNode sequence = serversList(root, display);
        List<Node> items = sequence.getValue();
        List<String> lines = lines(text);
        int[] starts = lineStarts(text);
        StringBuilder kept = new StringBuilder(text.length());
        int copied = 0;
        int floor = sequence.getStartMark().getLine() - 1; // the "servers:" line, when the list starts below it
        for (int index = 0; index < items.size(); index++) {
            Node item = items.get(index);
            int first = dashLine(lines, item, floor, display);
            int last = ServersAppender.lastLine(item);
            int next = index + 1 < items.size() ? items.get(index + 1).getStartMark().getLine() : Integer.MAX_VALUE;
            if (first <= floor || last >= next) {
                throw new ConfigException(display + ":" + YamlDocument.line(item)
                        + ": cannot remove a server that shares its lines with other content",
                        "put each '- hostname: ...' item on lines of its own, or edit the file by hand");
            }
            if (indices.contains(index)) {
                int from = starts[first];
                int to = last + 1 < starts.length ? starts[last + 1] : text.length();
                kept.append(text, copied, from);
                copied = to;
            }
            floor = last;
        }
        kept.append(text, copied, text.length());
        return kept.toString();
    }

    private static SequenceNode serversList(Node root, String display) {
        NodeTuple entry = root instanceof MappingNode mapping ? mapping.getValue().stream()
                .filter(t -> t.getKeyNode() instanceof ScalarNode s && s.getValue().equals("servers"))
                .findFirst().orElse(null) : null;
        if (entry == null || !(entry.getValueNode() instanceof SequenceNode sequence)) {
            throw new ConfigException(display + ": has no 'servers:' list to remove servers from",
                    "see config.example.yml");
        }
        if (sequence.getFlowStyle() == FlowStyle.FLOW) {
            throw new ConfigException(display + ":" + YamlDocument.line(sequence)
                    + ": cannot remove servers from a flow-style [...] servers list",
                    "rewrite it as a block list ('- hostname: ...' lines), or edit the file by hand");
        }
        return sequence;
    }

    /**
     * The line of an item's {@code -}: its first line when that starts with the dash, else the
     * nearest line above holding the dash alone ({@code -} on its own line, the content below).
     */
    private static int dashLine(List<String> lines, Node item, int floor, String display) {
        int line = item.getStartMark().getLine();
        if (lines.get(line).strip().startsWith("-")) {
            return line;
        }
        for (int above = line - 1; above > floor; above--) {
            String text = lines.get(above).strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            if (text.equals("-") || text.startsWith("- #") || text.startsWith("-\t#")) {
                return above;
            }
            break;
        }
        throw new ConfigException(display + ":" + YamlDocument.line(item) + ": cannot find where this server's item starts",
                "write it as '- hostname: ...', or edit the file by hand");
    }

    /**
     * The lines as SnakeYAML counts them: {@code \r\n}, {@code \r}, {@code \n}, U+0085, U+2028 and
     * U+2029 each end one, so line numbers in its marks index this list.
     */
    static List<String> lines(String text) {
        int[] starts = lineStarts(text);
        List<String> lines = new ArrayList<>(starts.length);
        for (int i = 0; i < starts.length; i++) {
            int end = i + 1 < starts.length ? starts[i + 1] : text.length();
            lines.add(text.substring(starts[i], end).replaceAll("(\r\n|[\r\n\u0085\u2028\u2029])$", ""));
        }
        return lines;
    }

    /** The offset at which each line begins (the first is 0); a final newline begins no line. */
    static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int at = 0; at < text.length(); at++) {
            char c = text.charAt(at);
            boolean crlf = c == '\r' && at + 1 < text.length() && text.charAt(at + 1) == '\n';
            if (crlf) {
                at++;
            }
            if ((crlf || c == '\r' || c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029') && at + 1 < text.length()) {
                starts.add(at + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }
}
