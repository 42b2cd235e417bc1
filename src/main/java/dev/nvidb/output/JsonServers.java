package dev.nvidb.output;

import java.util.List;

/**
 * {@code nvidb ls --json}: the configured servers, and with {@code --detail} where each one
 * resolves to after {@code ~/.ssh/config} is applied.
 */
public record JsonServers(int schemaVersion, boolean ok, List<JsonServer> servers) {

    /**
     * One server as configured ({@code port}, {@code username} null when left to ssh config),
     * plus {@code resolved} ({@code user@host:port via jumps}) and {@code resolution} when
     * details were asked for, and {@code resolve_error} when resolution failed.
     */
    public record JsonServer(String name, String hostname, Integer port, String username, String auth,
                             String identityfile, String proxyjump, List<Integer> gpus, String resolved,
                             List<String> identityFiles, String resolveError, JsonResolution resolution) {

        /** The server's lines in {@code nvidb ls}: name, target and auth, then what it resolves to. */
        public String text() {
            StringBuilder text = new StringBuilder(String.format("%-16s %s", name, target()));
            if (proxyjump != null) {
                text.append("  via ").append(proxyjump);
            }
            if (gpus != null) {
                text.append("  gpus ").append(gpus);
            }
            if (resolved != null) {
                text.append("\n    resolves to ").append(resolved);
                text.append("\n    keys ").append(identityFiles.isEmpty() ? "(agent only)"
                        : String.join(", ", identityFiles));
            }
            if (resolveError != null) {
                text.append("\n    cannot resolve: ").append(resolveError);
            }
            return text.toString();
        }

        private String target() {
            String user = username == null ? "" : username + "@";
            String at = port == null ? "" : ":" + port;
            return user + hostname + at + "  auth " + auth;
        }
    }

    /**
     * Where a server (or one of its jump hosts) resolves to, field by field as {@code ssh -G}
     * prints them, paths expanded as they are opened: {@code proxyjump} as written, null for
     * none; {@code jumps} resolved, first hop first (a jump host's own list is empty).
     */
    public record JsonResolution(String hostname, int port, String user, List<String> identityFiles,
                                 List<String> certificateFiles, boolean identitiesOnly, String proxyjump,
                                 List<JsonResolution> jumps) {
    }

    public static JsonServers of(List<JsonServer> servers) {
        return new JsonServers(Json.SCHEMA_VERSION, servers.stream().allMatch(server -> server.resolveError() == null),
                servers);
    }
}
