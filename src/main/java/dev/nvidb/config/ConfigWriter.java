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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adds servers to {@code config.yml} for {@code nvidb add} and {@code nvidb import}. Lines are
 * inserted into the existing text, so comments and layout survive; the result is re-read by the
 * strict loader before it replaces the file atomically (mode 0600), so a write can never leave an
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

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }
}
