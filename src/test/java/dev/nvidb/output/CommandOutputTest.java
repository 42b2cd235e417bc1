package dev.nvidb.output;

import dev.nvidb.output.JsonInfo.JsonFile;
import dev.nvidb.output.JsonServers.JsonResolution;
import dev.nvidb.output.JsonServers.JsonServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The set-up commands' documents (add, import, trust, ls, info) and the error envelope. */
class CommandOutputTest {

    @Test
    void errorEnvelopeMatchesGoldenFile() throws Exception {
        Golden.assertMatches("error.json", Json.write(JsonError.of("usage", "no job 999",
                "see 'nvidb job ls' for the ids the queue knows")));
    }

    @Test
    void serverListMatchesGoldenFile() throws Exception {
        JsonServers servers = JsonServers.of(List.of(
                new JsonServer("gpu-a", "10.0.0.2", 22, "alice", "auto", null, null, null,
                        "alice@10.0.0.2:22 via login (login.lab:2222)", List.of("/home/alice/.ssh/id_ed25519"), null,
                        new JsonResolution("10.0.0.2", 22, "alice", List.of("/home/alice/.ssh/id_ed25519"),
                                List.of("/home/alice/.ssh/id_ed25519-cert.pub"), true, "gate@login:2222",
                                List.of(new JsonResolution("login.lab", 2222, "gate", List.of("/home/alice/.ssh/id_rsa"),
                                        List.of(), false, null, List.of())))),
                new JsonServer("gpu-b", "gpu-b.lab", null, null, "key", "~/.ssh/lab_ed25519", "bastion", List.of(0, 1),
                        null, null, "/home/alice/.ssh/config:4: Match exec is not supported: nvidb never runs commands "
                        + "from ssh config", null)));
        Golden.assertMatches("ls.json", Json.write(servers));
    }

    @Test
    void infoMatchesGoldenFile() throws Exception {
        JsonInfo info = new JsonInfo(Json.SCHEMA_VERSION, true, "0.1.0", "~/.nvidb",
                new JsonFile("~/.nvidb/config.yml", true), new JsonFile("~/.nvidb/queue.yml", false),
                new JsonFile("~/.ssh/config", true), new JsonFile("~/.ssh/known_hosts", true), "strict", 5, 10, 30,
                false, List.of("gpu-a", "gpu-b"), List.of("gpu-a", "gpu-b"), null, List.of());
        Golden.assertMatches("info.json", Json.write(info));
    }

    @Test
    void addImportAndTrustMatchGoldenFiles() throws Exception {
        Golden.assertMatches("add.json",
                Json.write(CliRecords.create("Added", Json.SCHEMA_VERSION, true, "gpu-a")));
        Golden.assertMatches("import.json", Json.write(CliRecords.create("Imported", Json.SCHEMA_VERSION,
                true, "~/.ssh/config", List.of("gpu-a", "gpu-b"), List.of("gpu-c"))));
        Golden.assertMatches("trust.json", Json.write(CliRecords.create("Trusted", Json.SCHEMA_VERSION,
                true, "gpu-a", "[10.0.0.2]:2222", "ssh-ed25519", "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
                "unknown", true)));
    }
}
