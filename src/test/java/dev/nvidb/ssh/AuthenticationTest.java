package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.testing.ClientKey;
import dev.nvidb.testing.HostOptions;
import dev.nvidb.testing.SshAgentProcess;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Client authentication: key files of every type, ssh-agent, passphrases, passwords, and the errors. */
class AuthenticationTest {

    private static SshHarness harness;
    private static TestHost host;

    @TempDir
    Path temp;

    @BeforeAll
    static void startHost() {
        harness = new SshHarness();
        host = harness.addHost("gpu-a", HostOptions.defaults().password("hunter2"));
    }

    @AfterAll
    static void stopHost() {
        harness.close();
    }

    /** The host by address, with nothing taken from ssh config, so only the given credentials count. */
    private static SshTarget bare() {
        return SshTarget.of("gpu-a").withHostname(host.address()).withPort(host.port()).withUsername(host.username());
    }

    @ParameterizedTest
    @EnumSource(value = ClientKey.class, names = {"ED25519", "ECDSA", "RSA"})
    void keyFilesOfEveryTypeAuthenticate(ClientKey key) {
        try (SshPool pool = new SshPool(harness.settings())) {
            ExecResult result = pool.exec(bare().withAuth(SshAuth.KEY).withIdentityFile(harness.clientKey(key)), "echo ok");
            assertEquals("ok\n", result.stdoutText());
        }
    }

    @Test
    void defaultIdentityFromTheHomeFolderIsUsedWhenNoneIsNamed() {
        try (SshPool pool = new SshPool(harness.settings())) {
            assertEquals(0, pool.exec(bare(), "true").exitStatus());
        }
    }

    @Test
    void rejectedKeySaysWhoWasRefusedAndWhatWasTried() {
        Path key = harness.clientKey(ClientKey.UNAUTHORIZED);
        try (SshPool pool = new SshPool(harness.settings())) {
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(bare().withIdentityFile(key), "true"));

            assertEquals("gpu-a (" + host.address() + ":" + host.port() + "): authentication failed for user "
                    + host.username() + " (tried publickey ~/keys/id_unauthorized; server accepts publickey,password)",
                    error.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ClientKey.class, names = {"ED25519", "RSA"})
    void keysHeldBySshAgentAuthenticate(ClientKey key) {
        try (SshAgentProcess agent = SshAgentProcess.start(temp)) {
            agent.add(harness.clientKey(key));
            SshSettings settings = harness.settings().withEnvironment(Map.of("SSH_AUTH_SOCK", agent.socket().toString()));
            try (SshPool pool = new SshPool(settings)) {
                assertEquals("ok\n", pool.exec(bare().withAuth(SshAuth.AGENT), "echo ok").stdoutText());
            }
        }
    }

    @Test
    void agentWithoutTheRightKeyFailsClearly() {
        try (SshAgentProcess agent = SshAgentProcess.start(temp)) {
            agent.add(harness.clientKey(ClientKey.UNAUTHORIZED));
            SshSettings settings = harness.settings().withEnvironment(Map.of("SSH_AUTH_SOCK", agent.socket().toString()));
            try (SshPool pool = new SshPool(settings)) {
                SshException error = assertThrows(SshException.class,
                        () -> pool.exec(bare().withAuth(SshAuth.AGENT), "true"));
                assertTrue(error.getMessage().contains("authentication failed for user " + host.username()
                        + " (tried ssh-agent (1 key)"), error.getMessage());
            }
        }
    }

    @Test
    void protectedKeyAsksThePromptOnceForSeveralConnections() {
        List<String> asked = new ArrayList<>();
        PassphrasePrompt prompt = text -> {
            asked.add(text);
            return Optional.of(ClientKey.PASSPHRASE.toCharArray());
        };
        Path key = harness.clientKey(ClientKey.ED25519_PROTECTED);
        try (SshPool pool = new SshPool(harness.settings().withPrompt(prompt))) {
            assertEquals(0, pool.exec(bare().withIdentityFile(key), "true").exitStatus());
            SshTarget sameHostAnotherName = bare().withIdentityFile(key);
            assertEquals(0, pool.exec(new SshTarget("other", sameHostAnotherName.hostname(), host.port(),
                    host.username(), SshAuth.KEY, key, null, null), "true").exitStatus());
        }
        assertEquals(List.of("Enter passphrase for key '~/keys/id_ed25519_protected': "), asked);
    }

    @Test
    void protectedKeyWithoutATerminalFailsWithOneClearLine() {
        Path key = harness.clientKey(ClientKey.ED25519_PROTECTED);
        try (SshPool pool = new SshPool(harness.settings())) {
            SshException error = assertThrows(SshException.class, () -> pool.exec(bare().withIdentityFile(key), "true"));

            assertEquals("gpu-a (" + host.address() + ":" + host.port() + "): identity file ~/keys/id_ed25519_protected"
                    + " is protected by a passphrase and there is no terminal to ask for it", error.getMessage());
            assertEquals("load it into ssh-agent (ssh-add) or run from a terminal", error.hint().orElseThrow());
        }
    }

    @Test
    void wrongPassphraseFailsWithOneClearLine() {
        Path key = harness.clientKey(ClientKey.ED25519_PROTECTED);
        PassphrasePrompt wrong = text -> Optional.of("not it".toCharArray());
        try (SshPool pool = new SshPool(harness.settings().withPrompt(wrong))) {
            SshException error = assertThrows(SshException.class, () -> pool.exec(bare().withIdentityFile(key), "true"));

            assertEquals("gpu-a (" + host.address() + ":" + host.port()
                    + "): wrong passphrase for identity file ~/keys/id_ed25519_protected", error.getMessage());
        }
    }

    @Test
    void missingIdentityFileIsNamed() {
        Path missing = harness.clientHome().resolve(".ssh/id_typo");
        int sessionsBefore = host.sessionsOpened();
        try (SshPool pool = new SshPool(harness.settings())) {
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(bare().withIdentityFile(missing), "true"));

            assertEquals("gpu-a: identity file ~/.ssh/id_typo does not exist", error.getMessage());
        }
        assertEquals(sessionsBefore, host.sessionsOpened(), "it fails before connecting");
    }

    @Test
    void passwordAuthenticationWorksOnlyWithTheRightPassword() {
        try (SshPool pool = new SshPool(harness.settings())) {
            assertEquals(0, pool.exec(bare().withAuth(SshAuth.PASSWORD).withPassword("hunter2"), "true").exitStatus());
            SshException error = assertThrows(SshException.class,
                    () -> pool.exec(new SshTarget("gpu-b", host.address(), host.port(), host.username(),
                            SshAuth.PASSWORD, null, "wrong", null), "true"));
            assertTrue(error.getMessage().endsWith("authentication failed for user " + host.username()
                    + " (tried password; server accepts publickey,password)"), error.getMessage());
        }
    }

    @Test
    void passwordIsNeverTriedUnlessAuthIsPassword() {
        try (SshPool pool = new SshPool(harness.settings())) {
            SshTarget keyOnly = bare().withIdentityFile(harness.clientKey(ClientKey.UNAUTHORIZED)).withPassword("hunter2");
            assertThrows(SshException.class, () -> pool.exec(keyOnly, "true"));
        }
    }
}
