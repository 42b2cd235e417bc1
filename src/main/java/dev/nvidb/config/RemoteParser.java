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
        return new RemoteConfig(host, nvidb, section.integer("port", 1, 65535, null), username);
    }
}
