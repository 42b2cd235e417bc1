package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Loads {@code config.yml} and {@code queue.yml} from an {@link NvidbHome} strictly: the first
 * problem stops loading with a one-line {@link ConfigException} naming file, line
 * and key. Missing files mean defaults. Precedence is described in {@code docs/config.md}.
 */
public final class ConfigLoader {

    private static final String CONFIG_HINT = "config.yml sections: " + String.join(", ", ConfigSchema.CONFIG_FILE_KEYS)
            + "; see config.example.yml";
    private static final String QUEUE_HINT = "queue.yml sections: " + String.join(", ", ConfigSchema.QUEUE_FILE_KEYS)
            + "; see queue.example.yml";
    private static final String SERVERS_EXAMPLE = "for example:\nservers:\n  - hostname: gpu-a.example.com";

    private final NvidbHome home;
    private final Map<String, String> env;

    /** @param env the process environment (tests pass their own map) */
    public ConfigLoader(NvidbHome home, Map<String, String> env) {
        this.home = home;
        this.env = Map.copyOf(env);
    }

    /** The keys every section accepts. */
    public static ConfigSchema schema() {
        return ConfigSchema.current();
    }

    /** Reads both files and applies environment overrides. */
    public NvidbConfig load() {
        requireTrustedFiles();
        return load(YamlDocument.read(home.configYml(), home), YamlDocument.read(home.queueYml(), home));
    }

    /**
     * The nvidb directory and its config files must be the user's own and not writable by
     * others: a file another user could write decides what nvidb runs (see {@link FileTrust}).
     */
    private void requireTrustedFiles() {
        FileTrust.requireTrusted(home.dir(), "the nvidb directory (NVIDB_HOME)");
        FileTrust.requireTrusted(home.configYml(), "config file");
        FileTrust.requireTrusted(home.queueYml(), "config file");
    }

    /** Parses {@code text} as the config.yml at {@code file}, with no queue.yml and no environment. */
    NvidbConfig parseConfigYml(Path file, String text) {
        YamlDocument config = YamlDocument.parse(text, file, home.display(file));
        return load(config, new YamlDocument(null, home.display(home.queueYml()), null));
    }

    /** Parses {@code text} as the queue.yml at {@code file}, with no config.yml and no environment. */
    NvidbConfig parseQueueYml(Path file, String text) {
        YamlDocument queue = YamlDocument.parse(text, file, home.display(file));
        return load(new YamlDocument(null, home.display(home.configYml()), null), queue);
    }

    /** Whether {@code text}, as the queue.yml at {@code file}, has a {@code servers:} key of its own. */
    boolean queueYmlHasServers(Path file, String text) {
        YamlDocument queue = YamlDocument.parse(text, file, home.display(file));
        return top(queue, ConfigSchema.QUEUE_FILE_KEYS, QUEUE_HINT, "config.yml").filter(q -> q.has("servers")).isPresent();
    }

    private NvidbConfig load(YamlDocument configDoc, YamlDocument queueDoc) {
        List<String> warnings = new ArrayList<>();
        Optional<YamlSection> config = top(configDoc, ConfigSchema.CONFIG_FILE_KEYS, CONFIG_HINT, "queue.yml");
        Optional<YamlSection> queueFile = top(queueDoc, ConfigSchema.QUEUE_FILE_KEYS, QUEUE_HINT, "config.yml");

        BasicConfig basic = config.flatMap(c -> c.section("basic", "in basic", ConfigSchema.BASIC_KEYS,
                SettingsParser.BASIC_HINT)).map(s -> SettingsParser.basic(s, home)).orElse(BasicConfig.defaults(home));
        ViewConfig view = config.flatMap(c -> c.section("view", "in view", ConfigSchema.VIEW_KEYS,
                SettingsParser.VIEW_HINT)).map(SettingsParser::view).orElse(ViewConfig.defaults());
        LogConfig log = config.flatMap(c -> c.section("log", "in log", ConfigSchema.LOG_KEYS,
                SettingsParser.LOG_HINT)).map(s -> SettingsParser.log(s, home)).orElse(LogConfig.defaults(home));
        List<ServerConfig> monitorServers = servers(config, new ServerParser(configDoc, home, warnings));
        List<ServerConfig> queueServers = queueFile.filter(q -> q.has("servers")).isPresent()
                ? servers(queueFile, new ServerParser(queueDoc, home, warnings))
                : monitorServers;

        QueueConfig queue = QueueConfig.defaults();
        queue = applyQueue(queue, config);
        queue = applyQueue(queue, queueFile);
        RemoteConfig remote = queueFile.flatMap(q -> q.section("remote", "in remote", ConfigSchema.REMOTE_KEYS,
                RemoteParser.HINT)).map(RemoteParser::parse).orElse(null);

        NvidbConfig loaded = new NvidbConfig(home, basic, view, monitorServers, queueServers, queue, remote, warnings, log);
        return EnvironmentOverrides.apply(loaded, env);
    }

    private Optional<YamlSection> top(YamlDocument document, List<String> keys, String hint, String otherFile) {
        Optional<MappingNode> root = document.rootMapping(keys);
        String where = "at the top level";
        return root.map(mapping -> {
            try {
                return new YamlSection(document, mapping, where, keys, hint);
            } catch (ConfigException e) {
                throw withOtherFileHint(e, otherFile);
            }
        });
    }

    /** A section that belongs in the other file gets a hint saying so. */
    private static ConfigException withOtherFileHint(ConfigException e,
            String otherFile) {
        List<String> otherKeys = otherFile.equals("queue.yml") ? ConfigSchema.QUEUE_FILE_KEYS
                : ConfigSchema.CONFIG_FILE_KEYS;
        for (String key : otherKeys) {
            if (e.getMessage().contains("unknown key '" + key + "' ")) {
                return new ConfigException(e.getMessage(),
                        "'" + key + "' belongs in " + otherFile + "; move it there", e);
            }
        }
        return e;
    }

    private static List<ServerConfig> servers(Optional<YamlSection> file, ServerParser parser) {
        if (file.isEmpty()) {
            return List.of();
        }
        Optional<List<Node>> items = file.get().list("servers", SERVERS_EXAMPLE);
        return items.map(parser::parse).orElse(List.of());
    }

    private QueueConfig applyQueue(QueueConfig base, Optional<YamlSection> file) {
        return file.flatMap(f -> f.section("queue", "in queue", ConfigSchema.QUEUE_KEYS, QueueParser.QUEUE_HINT))
                .map(section -> QueueParser.apply(base, section, home)).orElse(base);
    }
}
