package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The examples at the repository root load strictly and document every key the loader knows. */
class ExampleFilesTest {

    private static final Path CONFIG_EXAMPLE = Path.of("config.example.yml");
    private static final Path QUEUE_EXAMPLE = Path.of("queue.example.yml");

    @TempDir
    Path dir;

    @Test
    void examplesLoadAsTheyAre() throws IOException {
        NvidbConfig config = TempHome.in(dir).config(Files.readString(CONFIG_EXAMPLE))
                .queue(Files.readString(QUEUE_EXAMPLE)).load();
        assertEquals(List.of("gpu-a", "training-a100"), config.monitorServers().stream().map(ServerConfig::name).toList());
        assertEquals(List.of("gpu-node", "cluster"), config.queueServers().stream().map(ServerConfig::name).toList());
        assertEquals(QueueConfig.defaults().leaseSeconds(), config.queue().leaseSeconds());
        assertTrue(config.queue().includeLocal(), "queue.yml overrides config.yml");
        assertEquals(null, config.remote(), "copying queue.example.yml must not start forwarding");
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void examplesCopiedAsTheyAreSwitchOnNothingSurprising() throws IOException {
        NvidbConfig config = TempHome.in(dir).config(Files.readString(CONFIG_EXAMPLE))
                .queue(Files.readString(QUEUE_EXAMPLE)).load();
        assertEquals(null, config.remote(), "a copied example does not turn this machine into a client");
        assertEquals(QueueConfig.defaults().backup(), config.queue().backup(), "the examples leave backups off");
        assertEquals(QueueConfig.defaults().retention(), config.queue().retention(), "the examples show the defaults");
        assertEquals(QueueConfig.defaults().notifications(), config.queue().notifications(),
                "copying an example turns on no delivery channel beyond the default log");
        for (Path example : List.of(CONFIG_EXAMPLE, QUEUE_EXAMPLE)) {
            String text = Files.readString(example);
            for (String key : List.of("remote", "\\s+notify")) {
                assertTrue(!java.util.regex.Pattern.compile("(?m)^" + key + ":").matcher(text).find(),
                        example + " switches on " + key + ":");
            }
        }
    }

    @Test
    void examplesLoadWithEveryCommentedOutKeyEnabled() throws IOException {
        NvidbConfig config = TempHome.in(dir).config(uncomment(Files.readString(CONFIG_EXAMPLE)))
                .queue(uncomment(Files.readString(QUEUE_EXAMPLE))).load();
        assertNotNull(config.remote());
        assertEquals("/home/user/.local/bin/nvidb", config.remote().nvidb());
        assertEquals(1, config.warnings().size(), "the example's password draws the plain-text warning");
    }

    @Test
    void everyKeyTheLoaderKnowsAppearsInAnExample() throws IOException {
        Map<String, Set<String>> documented = new HashMap<>();
        collect(ConfigSchema.CONFIG_FILE, root(CONFIG_EXAMPLE), documented);
        collect(ConfigSchema.QUEUE_FILE, root(QUEUE_EXAMPLE), documented);
        String bothExamples = Files.readString(CONFIG_EXAMPLE) + Files.readString(QUEUE_EXAMPLE);
        ConfigSchema schema = ConfigLoader.schema();
        for (Map.Entry<String, List<String>> section : schema.sections().entrySet()) {
            for (String key : section.getValue()) {
                if (schema.aliases().containsKey(key)) {
                    assertTrue(bothExamples.contains("`" + key + "`"), () -> "alias " + key + " is not mentioned");
                    continue;
                }
                assertTrue(documented.getOrDefault(section.getKey(), Set.of()).contains(key),
                        () -> "key '" + key + "' of section '" + section.getKey() + "' is not in an example");
            }
        }
    }

    @Test
    void everyExampleKeyLineHasAComment() throws IOException {
        for (Path example : List.of(CONFIG_EXAMPLE, QUEUE_EXAMPLE)) {
            for (String line : uncomment(Files.readString(example)).split("\n")) {
                boolean isKey = line.matches("\\s*(- )?[a-z_]+:.*");
                boolean bareHeader = line.matches("\\s*[a-z_]+:\\s*");
                assertTrue(!isKey || bareHeader || line.contains(" #"), () -> example + ": no comment on: " + line);
            }
        }
    }

    /** The example with its commented-out keys ({@code #key:}) enabled. */
    static String uncomment(String text) {
        return text.replaceAll("(?m)^([ \\t]*)#( *[a-z_]+:([ \\t].*)?)$", "$1$2");
    }

    private static Node root(Path example) throws IOException {
        return YamlDocument.parse(uncomment(Files.readString(example)), null, example.toString()).root();
    }

    private static void collect(String section, Node node, Map<String, Set<String>> documented) {
        if (!(node instanceof MappingNode mapping)) {
            return;
        }
        for (NodeTuple tuple : mapping.getValue()) {
            String key = ((ScalarNode) tuple.getKeyNode()).getValue();
            documented.computeIfAbsent(section, s -> new HashSet<>()).add(key);
            String child = childSection(section, key);
            if (tuple.getValueNode() instanceof SequenceNode items) {
                items.getValue().forEach(item -> collect(child, item, documented));
            } else {
                collect(child, tuple.getValueNode(), documented);
            }
        }
    }

    private static String childSection(String section, String key) {
        if (section.equals(ConfigSchema.CONFIG_FILE) || section.equals(ConfigSchema.QUEUE_FILE)) {
            return key.equals("servers") ? ConfigSchema.SERVER : key;
        }
        return section + "." + key;
    }
}
