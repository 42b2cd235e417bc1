package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading servers: every key, the gpu_ids alias, and plain-text password warnings. */
class ServerParsingTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryServerKey() {
        NvidbConfig config = TempHome.in(dir).config("""
                servers:
                  - hostname: "gpu-a.example.com"
                    port: 2222
                    username: alice
                    nickname: "Production GPU"
                    auth: KEY
                    identityfile: ~/.ssh/id_missing
                    proxyjump: "login-a,alice@login-b:2222"
                    gpus: [0, 1]
                """).load();
        ServerConfig server = config.monitorServers().get(0);
        assertEquals(new ServerConfig("gpu-a.example.com", 2222, "alice", "Production GPU", AuthMethod.KEY,
                dir.resolve(".ssh/id_missing"), null, "login-a,alice@login-b:2222", List.of(0, 1)), server);
        assertEquals("Production GPU", server.name());
        assertFalse(Files.exists(server.identityfile()), "a missing key file is the SSH layer's error, not ours");
    }

    @Test
    void aSlurmServerCarriesItsPartitionAndOptions() {
        NvidbConfig config = TempHome.in(dir).queue("""
                servers:
                  - hostname: login.cluster
                    nickname: cluster
                    kind: slurm
                    partition: gpu
                    account: lab
                    qos: normal
                    time_limit: "1-00:00:00"
                    slurm_bin: /opt/slurm/bin
                  - hostname: gpu-a
                queue:
                  slurm_overflow: true
                """).load();
        assertEquals(new dev.nvidb.model.SlurmTarget("gpu", "lab", "normal", "1-00:00:00", "/opt/slurm/bin"),
                config.queueServers().get(0).slurm());
        assertEquals(null, config.queueServers().get(1).slurm());
        assertEquals(true, config.queue().slurmOverflow());
    }

    @Test
    void minimalServerHasNullsAndAutoAuth() {
        ServerConfig server = TempHome.in(dir).config("servers:\n  - hostname: alias\n").load().monitorServers().get(0);
        assertEquals(ServerConfig.ofHost("alias"), server);
        assertEquals("alias", server.name());
        assertNull(server.port());
        assertNull(server.gpus());
        assertFalse(server.restrictsGpus());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "all", value = {
        "gpus: [2, 0]|2,0",
        "gpu_ids: [3]|3",
        "gpus: []|''",
        "gpu_ids: []|''",
        "gpus:|all",
        "port: 22|all",
    })
    void gpuIdsIsAnAliasOfGpus(String line, String expected) {
        ServerConfig server = TempHome.in(dir).config("servers:\n  - hostname: a\n    " + line + "\n")
                .load().monitorServers().get(0);
        List<Integer> gpus = expected == null ? null
                : expected.isEmpty() ? List.of() : java.util.Arrays.stream(expected.split(",")).map(Integer::valueOf).toList();
        assertEquals(gpus, server.gpus());
    }

    @Test
    void plainTextPasswordIsAcceptedWithAWarning() throws IOException {
        TempHome temp = TempHome.in(dir).config("servers:\n  - hostname: gpu-a\n    password: hunter2\n");
        Files.setPosixFilePermissions(temp.home().configYml(), PosixFilePermissions.fromString("rw-------"));
        NvidbConfig config = temp.load();
        assertEquals("hunter2", config.monitorServers().get(0).password());
        assertEquals(List.of("~/.nvidb/config.yml:3: a password is stored in plain text for 'gpu-a'; "
                + "prefer key or agent auth"), config.warnings());
        assertFalse(config.monitorServers().get(0).toString().contains("hunter2"));
    }

    @Test
    void passwordWarningSaysWhenOthersCanReadTheFile() throws IOException {
        TempHome temp = TempHome.in(dir).queue("servers:\n  - hostname: gpu-a\n    nickname: a\n    password: pw\n");
        Files.setPosixFilePermissions(temp.home().queueYml(), PosixFilePermissions.fromString("rw-r--r--"));
        List<String> warnings = temp.load().warnings();
        assertEquals(List.of("~/.nvidb/queue.yml:4: a password is stored in plain text for 'a'; prefer key or agent "
                + "auth; the file is readable by group or others (chmod 600 ~/.nvidb/queue.yml)"), warnings);
    }

    @Test
    void numbersAndBooleansAreTakenAsWrittenForStringKeys() {
        ServerConfig server = TempHome.in(dir).config("servers:\n  - hostname: 10.0.0.42\n    nickname: 3090\n"
                + "    username: yes\n").load().monitorServers().get(0);
        assertEquals("10.0.0.42", server.hostname());
        assertEquals("3090", server.nickname());
        assertEquals("yes", server.username());
    }

    @Test
    void sameHostTwiceIsFineWithDifferentNicknames() {
        NvidbConfig config = TempHome.in(dir).config("""
                servers:
                  - {hostname: box, nickname: box-a, port: 22}
                  - {hostname: box, nickname: box-b, port: 2222}
                """).load();
        assertEquals(List.of("box-a", "box-b"), config.monitorServers().stream().map(ServerConfig::name).toList());
        assertTrue(config.findMonitorServer("box-b").isPresent());
        assertTrue(config.findQueueServer("box-a").isPresent());
    }
}
