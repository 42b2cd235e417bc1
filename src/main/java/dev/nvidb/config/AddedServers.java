package dev.nvidb.config;

import java.util.List;

/**
 * What {@link ConfigWriter#addServers} did: the servers written, and those skipped because a
 * server with the same name was already configured (or appeared earlier in the same batch).
 */
public record AddedServers(List<ServerConfig> added, List<ServerConfig> skipped) {

    public AddedServers {
        added = List.copyOf(added);
        skipped = List.copyOf(skipped);
    }
}
