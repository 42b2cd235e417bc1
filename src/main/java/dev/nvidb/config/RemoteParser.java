package dev.nvidb.config;

/** Reads the {@code remote:} section of {@code queue.yml}. */
final class RemoteParser {

    static final String HINT = "valid keys: " + String.join(", ", ConfigSchema.REMOTE_KEYS)
            + "; see queue.example.yml";

    private RemoteParser() {
    }

    static RemoteConfig parse(YamlSection section) {
        String host = section.string("host", null);
        if (host == null || host.isBlank()) {
            throw section.document().error(section.node(), "'remote' has no 'host'",
                    "write 'host: <queue host or ssh alias>', or remove the remote section to use a local queue");
        }
        ServerParser.checkName(section, "host", host, "a host name, address or ssh alias");
        String username = section.string("username", null);
        ServerParser.checkName(section, "username", username, "a user name");
        String nvidb = section.string("nvidb", RemoteConfig.DEFAULT_COMMAND);
        if (nvidb.isBlank() || nvidb.chars().anyMatch(Character::isISOControl)) {
            throw section.error(section.value("nvidb").orElseThrow(), "'nvidb' must be the nvidb command on the "
                    + "queue host, got " + YamlSection.describe(section.value("nvidb").orElseThrow()),
                    "for example: /home/user/.local/bin/nvidb");
        }
        String home = section.string("nvidb_home", null);
        if (home != null && (home.isBlank() || home.chars().anyMatch(Character::isISOControl)
                || !(home.startsWith("/") || home.startsWith("~/")))) {
            throw section.error(section.value("nvidb_home").orElseThrow(), "'nvidb_home' must be an absolute "
                    + "directory on the queue host (or ~/...), got "
                    + YamlSection.describe(section.value("nvidb_home").orElseThrow()),
                    "for example: /home/user/.nvidb; leave it out to use the queue host's default");
        }
        return new RemoteConfig(host, nvidb, section.integer("port", 1, 65535, null), username, home, keeper(section));
    }

    private static RemoteConfig.Keeper keeper(YamlSection section) {
        String value = section.string("keeper", null);
        if (value == null) {
            return RemoteConfig.Keeper.ENSURE;
        }
        return switch (value.strip()) {
            case "ensure" -> RemoteConfig.Keeper.ENSURE;
            case "off" -> RemoteConfig.Keeper.OFF;
            default -> throw section.error(section.value("keeper").orElseThrow(), "'keeper' must be ensure or off, got "
                    + YamlSection.describe(section.value("keeper").orElseThrow()),
                    "ensure: start the queue host's keeper when it is down (default); off: leave it alone");
        };
    }
}
