package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** NVIDB_* variables are applied after both files; bad values name the variable. */
class EnvironmentOverridesTest {

    @TempDir
    Path dir;

    @Test
    void hostKeyPolicyAndConnectTimeoutOverrideConfigYml() {
        NvidbConfig config = TempHome.in(dir)
                .config("basic:\n  host_key_policy: strict\n  connect_timeout: 9\n")
                .withEnv("NVIDB_HOST_KEY_POLICY", "accept-new")
                .withEnv("NVIDB_CONNECT_TIMEOUT", "3")
                .load();
        assertEquals(HostKeyPolicy.ACCEPT_NEW, config.basic().hostKeyPolicy());
        assertEquals(3, config.basic().connectTimeout());
    }

    @Test
    void remoteHostOverridesOnlyTheHost() {
        NvidbConfig config = TempHome.in(dir)
                .queue("remote:\n  host: old\n  nvidb: /opt/nvidb\n")
                .withEnv("NVIDB_REMOTE", "new-host")
                .load();
        assertEquals(new RemoteConfig("new-host", "/opt/nvidb", null, null), config.remote());
    }

    @Test
    void remoteWithoutQueueYmlStartsForwarding() {
        NvidbConfig config = TempHome.in(dir).withEnv("NVIDB_REMOTE", "qhost").load();
        assertEquals(new RemoteConfig("qhost", "nvidb", null, null), config.remote());
    }

    @Test
    void emptyRemoteDisablesForwarding() {
        NvidbConfig config = TempHome.in(dir).queue("remote:\n  host: qhost\n").withEnv("NVIDB_REMOTE", "").load();
        assertNull(config.remote());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "NVIDB_HOST_KEY_POLICY|yes|NVIDB_HOST_KEY_POLICY must be one of strict, accept-new, got \"yes\"",
        "NVIDB_CONNECT_TIMEOUT|soon|NVIDB_CONNECT_TIMEOUT must be an integer between 1 and 3600 (seconds), got \"soon\"",
        "NVIDB_CONNECT_TIMEOUT|0|NVIDB_CONNECT_TIMEOUT must be an integer between 1 and 3600 (seconds), got \"0\"",
        "NVIDB_REMOTE|-oProxyCommand=x|NVIDB_REMOTE must be a host name, address or ssh alias, got \"-oProxyCommand=x\"",
        "NVIDB_REMOTE|two words|NVIDB_REMOTE must be a host name, address or ssh alias, got \"two words\"",
    })
    void badValueIsAnErrorNamingTheVariable(String variable, String value, String message) {
        TempHome temp = TempHome.in(dir).withEnv(variable, value);
        ConfigException error = assertThrows(ConfigException.class, temp::load);
        assertEquals(message, error.getMessage());
        assertTrue(error.hint().isPresent());
    }

    @Test
    void nvidbHomeMovesTheFiles() {
        Path elsewhere = dir.resolve("custom");
        TempHome temp = TempHome.in(dir).withEnv("NVIDB_HOME", elsewhere.toString());
        assertEquals(elsewhere, temp.home().dir());
        assertEquals(elsewhere.resolve("config.yml"), temp.home().configYml());
        assertEquals(elsewhere.resolve("queue.yml"), temp.home().queueYml());
    }
}
