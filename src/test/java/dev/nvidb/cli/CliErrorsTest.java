package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets one clear line, a non-zero exit, no stack trace, and changes nothing. */
class CliErrorsTest {

    @TempDir
    Path home;

    private Map<String, String> env() {
        return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString());
    }

    @Test
    void misspelledKeyNamesFileLineAndSuggestion() throws Exception {
        Path config = home.resolve(".nvidb/config.yml");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "servers:\n  - hostname: gpu-a\n    prot: 22\n");
        CliRun run = CliRun.run(env(), "ls");
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        String first = run.stderr().lines().findFirst().orElseThrow();
        assertEquals("nvidb: ~/.nvidb/config.yml:3: unknown key 'prot' in server 'gpu-a' (did you mean 'port'?)", first);
        assertFalse(run.stderr().contains("at dev.nvidb"), "no stack trace without --verbose");
    }

    @Test
    void jsonModePrintsTheErrorEnvelopeOnStdout() throws Exception {
        Path config = home.resolve(".nvidb/config.yml");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "basic:\n  connect_timeout: soon\n");
        CliRun run = CliRun.run(env(), "info", "--json");
        assertEquals(2, run.exitCode());
        JsonNode document = new ObjectMapper().readTree(run.stdout());
        assertEquals(1, document.get("schema_version").asInt());
        assertFalse(document.get("ok").asBoolean());
        assertEquals("config", document.at("/error/type").asText());
        assertTrue(document.at("/error/message").asText().startsWith("~/.nvidb/config.yml:2:"), run.stdout());
    }

    @Test
    void verboseAddsTheStackTrace() throws Exception {
        Path config = home.resolve(".nvidb/config.yml");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "servers: [\n");
        CliRun run = CliRun.run(env(), "info", "--verbose");
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().startsWith("nvidb: ~/.nvidb/config.yml:"), run.stderr());
        assertTrue(run.stderr().contains("malformed YAML"), run.stderr());
        assertTrue(run.stderr().contains("at dev.nvidb"), "stack trace with --verbose");
    }

    @Test
    void unknownOptionIsAUsageError() {
        CliRun run = CliRun.run(env(), "ls", "--detial");
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().startsWith("nvidb: Unknown option: '--detial'"), run.stderr());
        assertTrue(run.stderr().contains("hint: see 'nvidb ls --help'"), run.stderr());
    }

    @Test
    void addWithoutTerminalOrHostnameChangesNothing() {
        CliRun run = CliRun.run(env(), "add");
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().startsWith("nvidb: nvidb add needs --hostname"), run.stderr());
        assertFalse(Files.exists(home.resolve(".nvidb/config.yml")));
    }

    @Test
    void addTakesTheHostAsItsOneArgument() throws Exception {
        CliRun run = CliRun.run(env(), "add", "gpu-a", "--port", "2222");
        assertEquals(0, run.exitCode(), run.stderr());
        String config = Files.readString(home.resolve(".nvidb/config.yml"));
        assertTrue(config.contains("hostname: \"gpu-a\"") && config.contains("port: 2222"), config);
        assertEquals(0, CliRun.run(env(), "add", "gpu-b", "--hostname", "gpu-b").exitCode(), "the same host twice");
        assertTrue(Files.readString(home.resolve(".nvidb/config.yml")).contains("hostname: \"gpu-b\""));
    }

    @Test
    void addWithTwoDifferentHostsChangesNothing() {
        CliRun run = CliRun.run(env(), "add", "gpu-a", "--hostname", "gpu-b");
        assertEquals(2, run.exitCode());
        assertEquals("nvidb: nvidb add got two hosts: 'gpu-a' and --hostname 'gpu-b'\n"
                + "  hint: give one: nvidb add HOST, or nvidb add --hostname HOST", run.stderr().strip());
        assertFalse(Files.exists(home.resolve(".nvidb/config.yml")));
        CliRun three = CliRun.run(env(), "add", "gpu-a", "gpu-b");
        assertEquals(2, three.exitCode());
        assertTrue(three.stderr().startsWith("nvidb: Unmatched argument at index 2: 'gpu-b'"), three.stderr());
        assertFalse(Files.exists(home.resolve(".nvidb/config.yml")));
    }

    @Test
    void addWithBadPortChangesNothing() {
        CliRun run = CliRun.run(env(), "add", "--hostname", "gpu-a", "--port", "70000");
        assertEquals(2, run.exitCode());
        assertEquals("nvidb: --port must be between 1 and 65535, got 70000", run.stderr().strip());
        assertFalse(Files.exists(home.resolve(".nvidb/config.yml")));
    }

    @Test
    void addThenImportSkipsWhatIsConfigured() throws Exception {
        assertEquals(0, CliRun.run(env(), "add", "--hostname", "10.0.0.42", "--nickname", "trainer").exitCode());
        Path sshConfig = home.resolve(".ssh/config");
        Files.createDirectories(sshConfig.getParent());
        Files.writeString(sshConfig, """
                Host *
                    ServerAliveInterval 30
                Host login
                    HostName login.example.com
                    User jump-user
                Host trainer
                    HostName 10.0.0.42
                    User gpu-user
                    ProxyJump login
                Host !bad *.corp
                    User nobody
                Host box
                    Port 2222
                """);
        CliRun run = CliRun.run(env(), "import", "--json");
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode document = new ObjectMapper().readTree(run.stdout());
        assertEquals("[\"login\",\"box\"]", document.get("imported").toString());
        assertEquals("[\"trainer\"]", document.get("skipped").toString());
        CliRun listed = CliRun.run(env(), "ls", "--json");
        JsonNode servers = new ObjectMapper().readTree(listed.stdout()).get("servers");
        assertEquals(3, servers.size());
        assertEquals("login.example.com", servers.get(1).get("hostname").asText());
        assertEquals("jump-user", servers.get(1).get("username").asText());
        assertEquals(2222, servers.get(2).get("port").asInt());
    }
}
