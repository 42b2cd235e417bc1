package dev.nvidb.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where nvidb keeps its files: {@code $NVIDB_HOME}, else {@code ~/.nvidb}. Also knows the user's
 * home so that {@code ~} can be expanded in paths and shown again in messages.
 *
 * @param dir      the nvidb directory (config.yml, queue.yml, queue.db, alerts.log, backups/)
 * @param userHome the user's home directory, what {@code ~} means on this machine
 */
public record NvidbHome(Path dir, Path userHome) {

    /** Environment variable that moves the nvidb directory. */
    public static final String ENV_HOME = "NVIDB_HOME";

    public NvidbHome {
        dir = dir.toAbsolutePath().normalize();
        userHome = userHome.toAbsolutePath().normalize();
    }

    /**
     * Resolves the directory from an environment map: {@code $NVIDB_HOME} if set and non-empty,
     * else {@code <home>/.nvidb} where home is {@code $HOME} if set, else {@code userHomeProperty}.
     */
    public static NvidbHome fromEnvironment(Map<String, String> env, String userHomeProperty) {
        String homeVar = env.get("HOME");
        Path userHome = Path.of(homeVar != null && !homeVar.isEmpty() ? homeVar : userHomeProperty);
        String override = env.get(ENV_HOME);
        if (override != null && !override.isEmpty()) {
            return new NvidbHome(expand(override, userHome), userHome);
        }
        return new NvidbHome(userHome.resolve(".nvidb"), userHome);
    }

    public Path configYml() {
        return dir.resolve("config.yml");
    }

    public Path queueYml() {
        return dir.resolve("queue.yml");
    }

    public Path queueDb() {
        return dir.resolve("queue.db");
    }

    public Path alertsLog() {
        return dir.resolve("alerts.log");
    }

    /** The GPU history that {@code nvidb log} writes and {@code nvidb web} reads (its own SQLite file). */
    public Path gpuLogDb() {
        return dir.resolve("gpu_log.db");
    }

    public Path backupsDir() {
        return dir.resolve("backups");
    }

    /** Expands a leading {@code ~} or {@code ~/} against the user's home; other paths are returned as given. */
    public Path expand(String path) {
        return expand(path, userHome);
    }

    /** The path as a user would type it: {@code ~/...} when it lies under the user's home. */
    public String display(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        if (absolute.equals(userHome)) {
            return "~";
        }
        if (absolute.startsWith(userHome)) {
            return "~/" + userHome.relativize(absolute);
        }
        return absolute.toString();
    }

    private static Path expand(String path, Path userHome) {
        if (path.equals("~")) {
            return userHome;
        }
        if (path.startsWith("~/")) {
            return userHome.resolve(path.substring(2));
        }
        return Path.of(path);
    }
}
