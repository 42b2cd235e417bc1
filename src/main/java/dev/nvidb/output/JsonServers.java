package dev.nvidb.output;

import java.util.List;

/**
 * {@code nvidb ls --json}: the configured servers, and with {@code --detail} where each one
 * resolves to after {@code ~/.ssh/config} is applied.
 */
public record JsonServers(int schemaVersion, boolean ok, List<JsonServer> servers) {

    /**
     * One server as configured ({@code port}, {@code username} null when left to ssh config),
     * plus {@code resolved} ({@code user@host:port via jumps}) when details were asked for, and
     * {@code resolve_error} when resolution failed.
     */
    public record JsonServer(String name, String hostname, Integer port, String username, String auth,
                             String identityfile, String proxyjump, List<Integer> gpus, String resolved,
                             List<String> identityFiles, String resolveError) {
    }

    public static JsonServers of(List<JsonServer> servers) {
        return new JsonServers(Json.SCHEMA_VERSION, true, servers);
    }
}
