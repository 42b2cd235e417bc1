package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import dev.nvidb.error.UsageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Adds servers to {@code config.yml} for {@code nvidb add} and {@code nvidb import}, and removes
 * them (from config.yml and queue.yml) for {@code nvidb clean}. Lines are inserted into or cut
 * out of the existing text, so comments and layout survive; the result is re-read by the strict
 * loader before it replaces the file atomically (mode 0600), so a write can never leave an
 * invalid or half-written file.
 */
public final class ConfigWriter {

    private final NvidbHome home;
    private final ServerRenderer renderer;

    public ConfigWriter(NvidbHome home) {
        this.home = home;
        this.renderer = new ServerRenderer(home);
    }

    /** One server as a YAML list item ({@code - hostname: ...}), defaults omitted, {@code ~} for the home. */
    public String render(ServerConfig server) {
        return String.join("\n", renderer.lines(server, 0, 2)) + "\n";
    }

    /**
     * Appends {@code servers} to {@code configYml}, creating it (and its directory, mode 0700) if
     * missing. A server whose name is already configured, or repeats an earlier one in the list, is
     * skipped. Nothing is written when every server is skipped.
     */
    public AddedServers addServers(Path configYml, List<ServerConfig> servers) {
        String display = home.display(configYml);
        try {
            AtomicFile.createDirectories(configYml.toAbsolutePath().getParent());
            Path lockFile = configYml.resolveSibling("." + configYml.getFileName() + ".lock");
            try (FileChannel lock = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lock.lock(); // released when the channel closes; serializes concurrent 'nvidb add' runs
                return addLocked(configYml, servers, display);
            }
        } catch (IOException e) {
            throw new ConfigException("cannot write " + display + ": " + e.getMessage(),
                    "check that the directory exists and is writable", e);
        }
    }

    private AddedServers addLocked(Path configYml, List<ServerConfig> servers, String display) throws IOException {
        String text = read(configYml);
        ConfigLoader loader = new ConfigLoader(home, Map.of());
        List<ServerConfig> existing = loader.parseConfigYml(configYml, text).monitorServers();
        Set<String> names = new HashSet<>();
        existing.forEach(server -> names.add(server.name()));
        List<ServerConfig> added = new ArrayList<>();
        List<ServerConfig> skipped = new ArrayList<>();
        for (ServerConfig server : servers) {
            (names.add(server.name()) ? added : skipped).add(server);
        }
        if (added.isEmpty()) {
            return new AddedServers(added, skipped);
        }
        YamlDocument document = YamlDocument.parse(text, configYml, display);
        String updated = new ServersAppender(renderer).append(text, document.root(), added, display);
        verify(loader, configYml, updated, existing, added, display);
        AtomicFile.replace(configYml, updated);
        return new AddedServers(added, skipped);
    }

    /** The strict loader must accept the new text and see exactly the old servers plus the new ones. */
    private static void verify(ConfigLoader loader, Path file, String updated, List<ServerConfig> existing,
            List<ServerConfig> added, String display) {
        List<ServerConfig> expected = new ArrayList<>(existing);
        expected.addAll(added);
        int bytes = updated.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > ConfigFileBytes.LIMIT) {
            // The loader reads no config file over the limit: written, it would stop every command.
            throw new ConfigException("refusing to write " + display + ": the result would be " + bytes
                    + " bytes, more than a config file may hold (" + ConfigFileBytes.LIMIT + ")",
                    "check the servers' values (a host name is at most 253 characters)");
        }
        List<ServerConfig> actual;
        try {
            actual = loader.parseConfigYml(file, updated).monitorServers();
        } catch (ConfigException e) {
            throw new ConfigException("refusing to write " + display + ": the result would not load: "
                    + e.getMessage(), "add the server by hand; see config.example.yml", e);
        }
        if (!actual.equals(expected)) {
            throw new ConfigException("refusing to write " + display + ": the result would not hold the expected "
                    + "servers", "add the server by hand; see config.example.yml");
        }
    }

    /**
     * Every server name of config.yml's {@code servers:} and of queue.yml's own, in file order
     * (config.yml's first), each once with the files that list it.
     */
    public List<ConfiguredServer> listServers() {
        String configText;
        String queueText;
        try {
            configText = read(home.configYml());
            queueText = read(home.queueYml());
        } catch (IOException e) {
            throw new ConfigException("cannot read " + home.display(home.dir()) + ": " + e.getMessage(),
                    "check that the files are readable", e);
        }
        ConfigLoader loader = new ConfigLoader(home, Map.of());
        Map<String, ConfiguredServer> listed = new LinkedHashMap<>();
        loader.parseConfigYml(home.configYml(), configText).monitorServers()
                .forEach(server -> listed.put(server.name(), new ConfiguredServer(server, true, false)));
        if (loader.queueYmlHasServers(home.queueYml(), queueText)) {
            for (ServerConfig server : loader.parseQueueYml(home.queueYml(), queueText).queueServers()) {
                ConfiguredServer known = listed.get(server.name());
                listed.put(server.name(), known == null ? new ConfiguredServer(server, false, true)
                        : new ConfiguredServer(known.server(), true, true));
            }
        }
        return List.copyOf(listed.values());
    }

    /**
     * Removes every entry called one of {@code names} from config.yml's {@code servers:} and, with
     * {@code queueYmlToo}, from queue.yml's own. Both files are locked, both new texts made and verified (each must load
     * and differ from the old one only by the servers removed) before either is replaced; a name
     * neither file lists is a usage error and nothing is written.
     */
    public RemovedServers removeServers(Set<String> names, boolean queueYmlToo) {
        try {
            try (FileChannel configLock = lock(home.configYml()); FileChannel queueLock = lock(home.queueYml())) {
                Removal config = removal(home.configYml(), names, false);
                Removal queue = queueYmlToo ? removal(home.queueYml(), names, true)
                        : new Removal(home.queueYml(), "", List.of());
                Set<String> unknown = new TreeSet<>(names);
                unknown.removeAll(config.removed());
                unknown.removeAll(queue.removed());
                if (!unknown.isEmpty()) {
                    throw new UsageException("no server named " + String.join(", ", unknown)
                            + " in " + home.display(home.configYml())
                            + (queueYmlToo ? " or " + home.display(home.queueYml()) : ""),
                            "see 'nvidb ls'");
                }
                config.write();
                queue.write();
                return new RemovedServers(config.removed(), queue.removed());
            }
        } catch (IOException e) {
            throw new ConfigException("cannot write " + home.display(home.dir()) + ": " + e.getMessage(),
                    "check that the directory exists and is writable", e);
        }
    }

    private static FileChannel lock(Path file) throws IOException {
        Path lockFile = file.resolveSibling("." + file.getFileName() + ".lock");
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        channel.lock(); // released when the channel closes
        return channel;
    }

    /** One file's new text, verified, not yet written; unchanged text when it lists none of the names. */
    private record Removal(Path file, String after, List<String> removed) {
        void write() throws IOException {
            if (!removed.isEmpty()) {
                AtomicFile.replace(file, after);
            }
        }
    }

    private Removal removal(Path file, Set<String> names, boolean queueYml) throws IOException {
        String text = read(file);
        ConfigLoader loader = new ConfigLoader(home, Map.of());
        if (queueYml && !loader.queueYmlHasServers(file, text)) {
            return new Removal(file, text, List.of());
        }
        NvidbConfig before = queueYml ? loader.parseQueueYml(file, text) : loader.parseConfigYml(file, text);
        List<ServerConfig> servers = queueYml ? before.queueServers() : before.monitorServers();
        Set<Integer> indices = new TreeSet<>();
        List<String> removed = new ArrayList<>();
        List<ServerConfig> remaining = new ArrayList<>();
        for (int index = 0; index < servers.size(); index++) {
            ServerConfig server = servers.get(index);
            if (names.contains(server.name())) {
                indices.add(index);
                removed.add(server.name());
            } else {
                remaining.add(server);
            }
        }
        if (removed.isEmpty()) {
            return new Removal(file, text, List.of());
        }
        String display = home.display(file);
        String updated = ServersRemover.remove(text, YamlDocument.parse(text, file, display).root(), indices, display);
        NvidbConfig after;
        try {
            after = queueYml ? loader.parseQueueYml(file, updated) : loader.parseConfigYml(file, updated);
        } catch (ConfigException e) {
            throw new ConfigException("refusing to write " + display + ": without the servers it would not load: "
                    + e.getMessage(), "remove the servers by hand", e);
        }
        if (!withoutWarnings(after).equals(withServers(before, queueYml ? before.monitorServers() : remaining,
                remaining))) {
            throw new ConfigException("refusing to write " + display + ": the result would change more than its servers",
                    "remove the servers by hand");
        }
        return new Removal(file, updated, removed);
    }

    private static NvidbConfig withServers(NvidbConfig config, List<ServerConfig> monitor, List<ServerConfig> queue) {
        return new NvidbConfig(config.home(), config.basic(), config.view(), monitor, queue, config.queue(),
                config.remote(), List.of(), config.log());
    }

    private static NvidbConfig withoutWarnings(NvidbConfig config) {
        return withServers(config, config.monitorServers(), config.queueServers());
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }
}
