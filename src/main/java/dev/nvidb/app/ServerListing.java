package dev.nvidb.app;

import dev.nvidb.config.AuthMethod;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.NvidbException;
import dev.nvidb.output.JsonServers.JsonResolution;
import dev.nvidb.output.JsonServers.JsonServer;
import dev.nvidb.ssh.ResolvedTarget;
import dev.nvidb.ssh.SshConfigFile;
import dev.nvidb.ssh.SshHostEntry;
import dev.nvidb.ssh.TargetResolver;
import java.nio.file.Path;
import java.util.List;

/**
 * The configured servers as {@code nvidb ls} shows them, resolved as {@code ssh -G} would with
 * {@code --detail}; and the servers {@code nvidb import} reads from an OpenSSH client config.
 */
public final class ServerListing {

    private ServerListing() {
    }

    /**
     * The server as {@code nvidb ls} lists it; with a {@code resolver} ({@code --detail}), also
     * what it resolves to through ~/.ssh/config (a failure to resolve is added to {@code failures}).
     */
    public static JsonServer describe(ServerConfig server, TargetResolver resolver, List<NvidbException> failures) {
        String resolved = null;
        List<String> identities = null;
        String error = null;
        JsonResolution resolution = null;
        if (resolver != null) {
            try {
                ResolvedTarget target = resolver.resolve(Wiring.target(server));
                resolved = target.describe();
                identities = paths(target.identityFiles());
                resolution = resolution(target);
            } catch (NvidbException e) {
                error = e.getMessage();
                failures.add(e);
            }
        }
        return new JsonServer(server.name(), server.hostname(), server.port(), server.username(), server.auth().key(),
                server.identityfile() == null ? null : server.identityfile().toString(), server.proxyjump(),
                server.gpus(), resolved, identities, error, resolution);
    }

    private static JsonResolution resolution(ResolvedTarget target) {
        return new JsonResolution(target.hostname(), target.port(), target.username(), paths(target.identityFiles()),
                paths(target.certificateFiles()), target.identitiesOnly(), target.proxyJump(),
                target.jumps().stream().map(ServerListing::resolution).toList());
    }

    private static List<String> paths(List<Path> paths) {
        return paths.stream().map(Path::toString).toList();
    }

    /** The concrete hosts of the ssh config {@code source} as servers (wildcard and negated patterns skipped). */
    public static List<ServerConfig> imported(NvidbHome home, Path source) {
        return SshConfigFile.listHosts(source).stream().map(entry -> server(home, entry)).toList();
    }

    private static ServerConfig server(NvidbHome home, SshHostEntry entry) {
        Path identity = entry.identityFiles().isEmpty() ? null : home.expand(entry.identityFiles().get(0));
        String hostname = entry.hostName() == null ? entry.alias() : entry.hostName();
        String nickname = hostname.equals(entry.alias()) ? null : entry.alias();
        return new ServerConfig(hostname, entry.port(), entry.user(), nickname, AuthMethod.AUTO, identity, null,
                entry.proxyJump(), null);
    }
}
