package dev.nvidb.config;

/**
 * One server name as the config files list it, for {@code nvidb clean}: the entry (config.yml's
 * when both files have one) and which files hold an entry of that name.
 *
 * @param server      the entry
 * @param inConfigYml config.yml's {@code servers:} lists it (the monitor's servers, and the queue's
 *                    when queue.yml has no {@code servers:} of its own)
 * @param inQueueYml  queue.yml's own {@code servers:} lists it
 */
public record ConfiguredServer(ServerConfig server, boolean inConfigYml, boolean inQueueYml) {

    /** The name the server is known by (nickname, else hostname). */
    public String name() {
        return server.name();
    }
}
