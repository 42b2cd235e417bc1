package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading ~/.ssh/config: concrete aliases for import, OpenSSH's first-value-wins merge, Include, bad values. */
class SshConfigFileTest {

    @TempDir
    Path home;

    private Path write(String text) throws IOException {
        Path config = home.resolve(".ssh/config");
        Files.createDirectories(config.getParent());
        Files.writeString(config, text);
        return config;
    }

    @Test
    void listsConcreteAliasesSkippingWildcardsAndNegationsOnce() throws IOException {
        Path config = write("""
                Host *
                  User everyone
                Host gpu-a gpu-b !gpu-c *.lab node?
                  HostName 10.0.0.1
                  User alice
                  Port 2222
                  IdentityFile ~/.ssh/id_lab
                  ProxyJump login
                Host gpu-a
                  HostName shadowed
                Match host gpu-z
                  User nobody
                Host = "quoted-host"
                  hostname=10.0.0.9
                """);

        List<SshHostEntry> hosts = SshConfigFile.listHosts(config);

        assertEquals(List.of(
                new SshHostEntry("gpu-a", "10.0.0.1", "alice", 2222, List.of("~/.ssh/id_lab"), "login"),
                new SshHostEntry("gpu-b", "10.0.0.1", "alice", 2222, List.of("~/.ssh/id_lab"), "login"),
                new SshHostEntry("quoted-host", "10.0.0.9", null, null, List.of(), null)), hosts);
    }

    @Test
    void missingFileHasNoHosts() {
        assertEquals(List.of(), SshConfigFile.listHosts(home.resolve("nope")));
    }

    @Test
    void lookupTakesTheFirstValueAndCollectsIdentityFiles() throws IOException {
        Path config = write("""
                Host gpu-*
                  User first
                  IdentityFile ~/.ssh/one
                Host gpu-a
                  User second
                  HostName 10.1.1.1
                  IdentityFile ~/.ssh/two
                Host * !gpu-a
                  Port 2200
                Host *
                  Port 22
                """);

        ResolvedTarget gpuA = resolver(config).resolve(SshTarget.of("gpu-a"));

        assertEquals("first@10.1.1.1:22", gpuA.describe());
        assertEquals(List.of(home.resolve(".ssh/one"), home.resolve(".ssh/two")), gpuA.identityFiles());
        assertEquals(2200, resolver(config).resolve(SshTarget.of("gpu-b")).port());
    }

    @Test
    void includedFilesAreRead() throws IOException {
        Files.createDirectories(home.resolve(".ssh/config.d"));
        Files.writeString(home.resolve(".ssh/config.d/lab"), "Host gpu-inc\n  HostName 10.2.2.2\n");
        Path config = write("Include config.d/*\nHost other\n  HostName 10.3.3.3\n");

        assertEquals(List.of("gpu-inc", "other"),
                SshConfigFile.listHosts(config).stream().map(SshHostEntry::alias).toList());
    }

    @Test
    void badPortNamesTheFile() throws IOException {
        Path config = write("Host gpu-a\n  Port twenty\n");

        ConfigException error = assertThrows(ConfigException.class, () -> resolver(config).resolve(SshTarget.of("gpu-a")));
        assertEquals(config + ":2: Port 'twenty' is not a port number", error.getMessage());
    }

    private TargetResolver resolver(Path config) {
        return new TargetResolver(SshSettings.defaults(home, Map.of("USER", "me"), PassphrasePrompt.none())
                .withSystemSshConfig(home.resolve("no-system-config")));
    }
}
