package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * One YAML file composed to SnakeYAML nodes, so every value keeps its line number. Turns every
 * read or syntax problem into a one-line {@link ConfigException} that starts with {@code file:line:}.
 *
 * @param file        the file on disk; null when parsed from text alone
 * @param displayName the path as shown in messages ({@code ~/.nvidb/config.yml})
 * @param root        the document's root node; null for a missing or empty file
 */
record YamlDocument(Path file, String displayName, Node root) {

    /** Reads {@code file}; a missing file is an empty document. */
    static YamlDocument read(Path file, NvidbHome home) {
        String display = home.display(file);
        String text;
        try {
            Optional<byte[]> bytes = ConfigFileBytes.read(file, display);
            if (bytes.isEmpty()) {
                return new YamlDocument(file, display, null);
            }
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.get())).toString();
        } catch (NoSuchFileException e) {
            return new YamlDocument(file, display, null);
        } catch (CharacterCodingException e) {
            throw new ConfigException(display + ": not valid UTF-8 text", "save the file as UTF-8", e);
        } catch (IOException e) {
            throw new ConfigException(display + ": cannot read: " + e.getMessage(),
                    "check that the file exists and is readable", e);
        }
        return parse(text, file, display);
    }

    /** Composes {@code text}; {@code file} may be null. */
    static YamlDocument parse(String text, Path file, String displayName) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setProcessComments(false);
        try {
            Node root = new Yaml(options).compose(new StringReader(text));
            return new YamlDocument(file, displayName, root);
        } catch (MarkedYAMLException e) {
            throw malformed(displayName, e);
        } catch (YAMLException e) {
            throw new ConfigException(displayName + ": malformed YAML: " + oneLine(e.getMessage()),
                    "check the YAML syntax", e);
        }
    }

    /** The root as a mapping, or empty for an empty document; anything else is an error. */
    Optional<MappingNode> rootMapping(List<String> sections) {
        if (root == null) {
            return Optional.empty();
        }
        if (root instanceof MappingNode mapping) {
            return Optional.of(mapping);
        }
        throw error(root, "the top level must be a mapping of sections, got " + YamlSection.describe(root),
                "valid sections: " + String.join(", ", sections));
    }

    /** An error located at {@code node}'s first line. */
    ConfigException error(Node node, String message, String hint) {
        return new ConfigException(where(node) + ": " + message, hint);
    }

    /** {@code file:line} of {@code node}. */
    String where(Node node) {
        return displayName + ":" + line(node);
    }

    static int line(Node node) {
        return node.getStartMark().getLine() + 1;
    }

    private static ConfigException malformed(String displayName, MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() != null ? e.getProblem() : "unreadable";
        StringBuilder text = new StringBuilder(displayName);
        if (mark != null) {
            text.append(':').append(mark.getLine() + 1);
        }
        text.append(": malformed YAML: ").append(oneLine(problem));
        if (e.getContext() != null) {
            text.append(" (").append(oneLine(e.getContext())).append(')');
        }
        if (mark != null) {
            text.append(" (column ").append(mark.getColumn() + 1).append(')');
        }
        return new ConfigException(text.toString(), "check the indentation and quoting around that line", e);
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\n\\s*", " ");
    }
}
