package dev.nvidb.config;

import java.util.List;

/**
 * What {@link ConfigWriter#removeServers} removed: the names taken out of config.yml and out of
 * queue.yml's own {@code servers:} list (a file with none of them was not written).
 */
public record RemovedServers(List<String> fromConfigYml, List<String> fromQueueYml) {

    public RemovedServers {
        fromConfigYml = List.copyOf(fromConfigYml);
        fromQueueYml = List.copyOf(fromQueueYml);
    }

    public boolean isEmpty() {
        return fromConfigYml.isEmpty() && fromQueueYml.isEmpty();
    }
}
