package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.ssh.ResolvedTarget.IdentityOrigin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging a node's target with ssh config: explicit values win, then the config, then defaults. */
class TargetResolverTest {

    @TempDir
    Path home;
    private TargetResolver resolver;

    @BeforeEach
    void writeConfig() throws IOException {
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/config"), """
                Host gpu-a
                  HostName 10.0.0.5
                  User alice
                  Port 2222
                  IdentityFile ~/.ssh/id_%h_%r
                  ProxyJump login
                Host login
                  HostName 10.0.0.1
                  User gate
                """);
        resolver = new TargetResolver(SshSettings.defaults(home, Map.of("USER", "me"), PassphrasePrompt.none())
                .withSystemSshConfig(home.resolve("no-system-config")));
    }

    @Test
    void aliasTakesHostNameUserPortIdentityAndJumpFromTheConfig() {
        ResolvedTarget target = resolver.resolve(SshTarget.of("gpu-a"));

        assertEquals("10.0.0.5", target.hostname());
        assertEquals(2222, target.port());
        assertEquals("alice", target.username());
        assertEquals(List.of(home.resolve(".ssh/id_10.0.0.5_alice")), target.identityFiles());
        assertEquals(IdentityOrigin.SSH_CONFIG, target.identityOrigin());
        assertEquals(1, target.jumps().size());
        ResolvedTarget jump = target.jumps().get(0);
        assertEquals("gate@10.0.0.1:22", jump.describe());
        assertEquals("alice@10.0.0.5:2222 via login (10.0.0.1:22)", target.describe());
    }

    @Test
    void explicitValuesInTheTargetWin() {
        SshTarget target = new SshTarget("node-1", "gpu-a", 2200, "bob", SshAuth.KEY, Path.of("/keys/id"), null, "none");

        ResolvedTarget resolved = resolver.resolve(target);

        assertEquals("10.0.0.5", resolved.hostname());
        assertEquals(2200, resolved.port());
        assertEquals("bob", resolved.username());
        assertEquals(List.of(Path.of("/keys/id")), resolved.identityFiles());
        assertEquals(IdentityOrigin.TARGET, resolved.identityOrigin());
        assertEquals(List.of(), resolved.jumps());
        assertEquals("node-1 (10.0.0.5:2200)", resolved.label());
    }

    @Test
    void unknownHostGetsTheLocalUserPort22AndDefaultIdentities() {
        ResolvedTarget target = resolver.resolve(SshTarget.of("10.9.9.9"));

        assertEquals("me@10.9.9.9:22", target.describe());
        assertEquals(IdentityOrigin.DEFAULT, target.identityOrigin());
        assertEquals(List.of("id_rsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk", "id_xmss", "id_dsa"),
                target.identityFiles().stream().map(file -> home.resolve(".ssh").relativize(file).toString()).toList());
    }

    @Test
    void jumpChainEntriesMayNameUserAndPort() {
        ResolvedTarget target = resolver.resolve(SshTarget.of("x").withHostname("10.9.9.9")
                .withProxyJump("login, carol@10.0.0.2:2022"));

        assertEquals(List.of("gate@10.0.0.1:22", "carol@10.0.0.2:2022"),
                target.jumps().stream().map(ResolvedTarget::describe).toList());
    }

    @Test
    void passwordsNeverAppearInText() {
        SshTarget target = SshTarget.of("gpu-a").withAuth(SshAuth.PASSWORD).withPassword("hunter2");

        assertEquals(false, target.toString().contains("hunter2"));
        assertEquals(false, resolver.resolve(target).toString().contains("hunter2"));
    }
}
