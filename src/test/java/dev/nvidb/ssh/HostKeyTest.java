package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.SshException;
import dev.nvidb.model.HostKeyPolicy;
import dev.nvidb.testing.HostOptions;
import dev.nvidb.testing.HostOptions.HostKeyType;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Host keys are checked against known_hosts under the policy; a changed key is never accepted. */
class HostKeyTest {

    @TempDir
    Path temp;
    private SshHarness harness;
    private TestHost host;

    @BeforeEach
    void start() {
        harness = new SshHarness();
        host = harness.addHost("gpu-a");
    }

    @AfterEach
    void stop() {
        harness.close();
    }

    @Test
    void unknownHostIsRefusedUnderStrictWithTheTrustHint() {
        Path empty = temp.resolve("known_hosts");
        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(empty))) {
            SshException error = assertThrows(SshException.class, () -> pool.exec(harness.target("gpu-a"), "true"));

            assertEquals("host key for gpu-a (" + host.address() + ":" + host.port() + ") is not known: "
                    + "run 'nvidb trust gpu-a'", error.getMessage());
            assertEquals("'nvidb trust gpu-a' shows its fingerprint and records it in known_hosts; "
                    + "or set host_key_policy: accept-new", error.hint().orElseThrow());
        }
        assertFalse(Files.exists(empty), "a refused key must not be recorded");
    }

    @Test
    void acceptNewRecordsTheKeyAndLaterConnectionsVerifyIt() throws IOException {
        Path file = temp.resolve("fresh/.ssh/known_hosts");
        SshSettings acceptNew = harness.settings().withKnownHosts(file).withHostKeyPolicy(HostKeyPolicy.ACCEPT_NEW);
        try (SshPool pool = new SshPool(acceptNew)) {
            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
        }

        List<String> lines = Files.readAllLines(file);
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).startsWith("[" + host.address() + "]:" + host.port() + " ssh-ed25519 "), lines.get(0));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        try (SshPool strict = new SshPool(harness.settings().withKnownHosts(file))) {
            assertEquals(0, strict.exec(harness.target("gpu-a"), "true").exitStatus());
        }
        assertEquals(1, Files.readAllLines(file).size(), "a known key is not recorded twice");
    }

    @Test
    void changedHostKeyIsRefusedUnderEveryPolicy() throws IOException {
        host.rotateHostKeys();
        String before = Files.readString(harness.knownHosts());
        for (HostKeyPolicy policy : HostKeyPolicy.values()) {
            try (SshPool pool = new SshPool(harness.settings().withHostKeyPolicy(policy))) {
                SshException error = assertThrows(SshException.class, () -> pool.exec(harness.target("gpu-a"), "true"));

                assertTrue(error.getMessage().startsWith(
                        "host key for gpu-a (" + host.address() + ":" + host.port() + ") has CHANGED"), error.getMessage());
                assertTrue(error.hint().orElseThrow().contains("ssh-keygen -R"), error.hint().orElseThrow());
            }
        }
        assertEquals(before, Files.readString(harness.knownHosts()), "known_hosts must be left alone");
    }

    @Test
    void hashedKnownHostsEntriesVerify() throws Exception {
        Path hashed = temp.resolve("known_hosts");
        Files.copy(harness.knownHosts(), hashed);
        run("ssh-keygen", "-H", "-f", hashed.toString());
        assertTrue(Files.readString(hashed).startsWith("|1|"), Files.readString(hashed));

        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(hashed))) {
            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
        }
    }

    @Test
    void keyRecordedForAnotherPortDoesNotCount() throws IOException {
        Path file = temp.resolve("known_hosts");
        String line = Files.readString(harness.knownHosts()).strip();
        Files.writeString(file, line.replace("]:" + host.port() + " ", "]:" + (host.port() + 1) + " ") + "\n");

        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(file))) {
            SshException error = assertThrows(SshException.class, () -> pool.exec(harness.target("gpu-a"), "true"));
            assertTrue(error.getMessage().contains("is not known"), error.getMessage());
        }
    }

    @Test
    void hostWithSeveralKeysIsKnownByAnyOfThem() {
        TestHost both = harness.addHost("gpu-b", HostOptions.defaults().hostKeys(HostKeyType.ECDSA, HostKeyType.ED25519));
        try (SshPool pool = new SshPool(harness.settings())) {
            assertEquals(0, pool.exec(harness.target("gpu-b"), "true").exitStatus());
        }
        assertEquals(1, both.sessionsOpened());
    }

    @ParameterizedTest
    @EnumSource(HostKeyType.class)
    void hostWithSeveralKeysIsVerifiedByWhicheverKeyIsRecorded(HostKeyType recorded) throws IOException {
        TestHost both = harness.addHost("gpu-b", HostOptions.defaults().hostKeys(HostKeyType.ED25519, HostKeyType.ECDSA));
        String type = recorded == HostKeyType.ED25519 ? " ssh-ed25519 " : " ecdsa-sha2-nistp256 ";
        Path file = temp.resolve("known_hosts");
        Files.write(file, Files.readAllLines(harness.knownHosts()).stream()
                .filter(line -> line.startsWith("[" + both.address() + "]") && line.contains(type)).toList());
        assertEquals(1, Files.readAllLines(file).size());

        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(file))) {
            assertEquals(0, pool.exec(harness.target("gpu-b"), "true").exitStatus());
        }
    }

    @Test
    void scanReportsTheFingerprintSshKeygenComputes() throws Exception {
        String expected = run("ssh-keygen", "-lf", host.hostKeyFile().toString()).split(" ")[1];
        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(temp.resolve("known_hosts")))) {
            HostKeyScan scan = pool.scan(harness.target("gpu-a"));

            assertEquals(expected, scan.fingerprint());
            assertEquals("ssh-ed25519", scan.keyType());
            assertEquals(HostKeyScan.Status.UNKNOWN, scan.status());
            assertEquals(host.address(), scan.host());
            assertEquals(host.port(), scan.port());
        }
        assertEquals(0, host.sessionsOpened() - 1, "a scan opens one session and authenticates nothing");
    }

    @Test
    void trustRecordsTheScannedKeySoStrictConnectsWork() {
        Path file = temp.resolve("known_hosts");
        try (SshPool pool = new SshPool(harness.settings().withKnownHosts(file))) {
            HostKeyScan scan = pool.scan(harness.target("gpu-a"));
            pool.trust(harness.target("gpu-a"), scan.key());

            assertEquals(HostKeyScan.Status.KNOWN, pool.scan(harness.target("gpu-a")).status());
            assertEquals(0, pool.exec(harness.target("gpu-a"), "true").exitStatus());
        }
    }

    @Test
    void scanOfAChangedKeySaysSoAndTrustRefusesToAddIt() {
        host.rotateHostKeys();
        try (SshPool pool = new SshPool(harness.settings())) {
            HostKeyScan scan = pool.scan(harness.target("gpu-a"));

            assertEquals(HostKeyScan.Status.CHANGED, scan.status());
            SshException error = assertThrows(SshException.class, () -> pool.trust(harness.target("gpu-a"), scan.key()));
            assertTrue(error.getMessage().contains("different key"), error.getMessage());
        }
    }

    static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + output);
        return output;
    }
}
