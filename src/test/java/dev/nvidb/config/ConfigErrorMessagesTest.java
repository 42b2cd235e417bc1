package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every config problem is one line naming file, line, key and what was expected. */
class ConfigErrorMessagesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of("typo in a server key", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            prot: 22
                        """, "~/.nvidb/config.yml:3: unknown key 'prot' in server 'gpu-a' (did you mean 'port'?)",
                        "valid keys: hostname, port,"),
                Arguments.of("typo in a section name", "config.yml", """
                        sever:
                          - hostname: gpu-a
                        """, "~/.nvidb/config.yml:1: unknown key 'sever' at the top level (did you mean 'servers'?)",
                        "config.yml sections: basic, servers, view, log, queue"),
                Arguments.of("unknown key far from any valid one", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            colour: blue
                        """, "~/.nvidb/config.yml:3: unknown key 'colour' in server 'gpu-a'", "valid keys:"),
                Arguments.of("section of the other file", "config.yml", """
                        remote:
                          host: q
                        """, "~/.nvidb/config.yml:1: unknown key 'remote' at the top level",
                        "'remote' belongs in queue.yml"),
                Arguments.of("nickname names the server", "config.yml", """
                        servers:
                          - hostname: gpu-a.example.com
                            nickname: a
                            identity_file: ~/.ssh/id
                        """, "~/.nvidb/config.yml:4: unknown key 'identity_file' in server 'a' (did you mean 'identityfile'?)",
                        "valid keys:"),
                Arguments.of("port not a number", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            port: twenty
                        """, "~/.nvidb/config.yml:3: 'port' must be an integer between 1 and 65535, got \"twenty\"", null),
                Arguments.of("port out of range", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            port: 70000
                        """, "~/.nvidb/config.yml:3: 'port' must be an integer between 1 and 65535, got 70000", null),
                Arguments.of("missing hostname", "config.yml", """
                        servers:
                          - hostname: gpu-a
                          - nickname: b
                            port: 22
                        """, "~/.nvidb/config.yml:3: server 'b' has no 'hostname'", "every server needs 'hostname:"),
                Arguments.of("bad auth", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            auth: pasword
                        """, "~/.nvidb/config.yml:3: 'auth' must be one of auto, key, password, agent, got \"pasword\"",
                        null),
                Arguments.of("duplicate names via nickname and hostname", "config.yml", """
                        servers:
                          - hostname: gpu-a
                          - hostname: 10.0.0.7
                            nickname: gpu-a
                        """, "~/.nvidb/config.yml:3: duplicate server name 'gpu-a' (also at line 2)", "nickname"),
                Arguments.of("negative gpu", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            gpus: [0, -1]
                        """, "~/.nvidb/config.yml:3: 'gpus' must list GPU indices (integers of at least 0), got \"-1\"",
                        "gpus: [0, 1]"),
                Arguments.of("non-integer gpu", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            gpu_ids:
                              - 0
                              - one
                        """, "~/.nvidb/config.yml:5: 'gpu_ids' must list GPU indices (integers of at least 0), got \"one\"",
                        null),
                Arguments.of("gpus and gpu_ids", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            gpus: [0]
                            gpu_ids: [1]
                        """, "~/.nvidb/config.yml:4: both 'gpus' and 'gpu_ids' are set (line 3)", "keep only gpus"),
                Arguments.of("gpus not a list", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            gpus: 0
                        """, "~/.nvidb/config.yml:3: 'gpus' must be a list, got \"0\"", "gpus: [0, 1]"),
                Arguments.of("top level is a list", "config.yml", """
                        - hostname: gpu-a
                        """, "~/.nvidb/config.yml:1: the top level must be a mapping of sections, got a list",
                        "valid sections: basic, servers, view, log, queue"),
                Arguments.of("duplicate key in a server", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            port: 22
                            port: 2222
                        """, "~/.nvidb/config.yml:4: duplicate key 'port' in server 'gpu-a' (first at line 3)", null),
                Arguments.of("min_severity not a severity", "queue.yml", """
                        queue:
                          notify:
                            min_severity: critical
                        """, "~/.nvidb/queue.yml:3: 'min_severity' must be one of info, warning, error, got \"critical\"",
                        "alerts below it are not delivered on any channel"),
                Arguments.of("hook list through a shell", "queue.yml", """
                        queue:
                          notify:
                            command: ["/usr/local/bin/page-me", "--urgent"]
                            command_shell: true
                        """, "~/.nvidb/queue.yml:4: 'command_shell: true' runs one string through /bin/sh -c, but"
                                + " 'command' is a list", "give command as one string"),
                Arguments.of("hook string with an unclosed quote", "queue.yml", """
                        queue:
                          notify:
                            command: "page-me 'lab queue"
                        """, "~/.nvidb/queue.yml:3: 'command' has an unclosed single quote (it is split into words"
                                + " without a shell)", "command_shell: true"),
                Arguments.of("hook word not a string", "queue.yml", """
                        queue:
                          notify:
                            command:
                              - page-me
                              - {urgent: true}
                        """, "~/.nvidb/queue.yml:5: each word of 'command' must be a string, got a mapping", null),
                Arguments.of("hook timeout of zero", "queue.yml", """
                        queue:
                          notify:
                            command: page-me
                            command_timeout_seconds: 0
                        """, "~/.nvidb/queue.yml:4: 'command_timeout_seconds' must be an integer between 1 and 86400,"
                                + " got 0", null),
                Arguments.of("duplicate section", "queue.yml", """
                        queue:
                          lease_seconds: 5
                        queue:
                          lease_seconds: 6
                        """, "~/.nvidb/queue.yml:3: duplicate key 'queue' at the top level (first at line 1)", null),
                Arguments.of("malformed YAML names line and column", "queue.yml", """
                        queue:
                          include_local: true
                            lease_seconds: 5
                        """, "~/.nvidb/queue.yml:3: malformed YAML: mapping values are not allowed here (column 18)",
                        "indentation"),
                Arguments.of("servers not a list", "config.yml", """
                        servers:
                          hostname: gpu-a
                        """, "~/.nvidb/config.yml:2: 'servers' must be a list, got a mapping", "- hostname:"),
                Arguments.of("server item not a mapping", "config.yml", """
                        servers:
                          - gpu-a
                        """, "~/.nvidb/config.yml:2: server #1 must be a mapping with at least 'hostname', got \"gpu-a\"",
                        "- hostname: gpu-a.example.com"),
                Arguments.of("boolean expected", "config.yml", """
                        basic:
                          remote: maybe
                        """, "~/.nvidb/config.yml:2: 'remote' must be true or false, got \"maybe\"", null),
                Arguments.of("bad host key policy", "config.yml", """
                        basic:
                          host_key_policy: yolo
                        """, "~/.nvidb/config.yml:2: 'host_key_policy' must be one of strict, accept-new, got \"yolo\"",
                        null),
                Arguments.of("timeout must be positive", "config.yml", """
                        basic:
                          connect_timeout: 0
                        """, "~/.nvidb/config.yml:2: 'connect_timeout' must be an integer between 1 and 3600, got 0",
                        null),
                Arguments.of("unknown key in queue section", "queue.yml", """
                        queue:
                          lease_second: 5
                        """, "~/.nvidb/queue.yml:2: unknown key 'lease_second' in queue (did you mean 'lease_seconds'?)",
                        "valid keys: include_local,"),
                Arguments.of("nested queue section", "config.yml", """
                        queue:
                          backup:
                            intervall_hours: 3
                        """, "~/.nvidb/config.yml:3: unknown key 'intervall_hours' in queue.backup (did you mean 'interval_hours'?)",
                        "valid keys: enabled, interval_hours, keep, directory"),
                Arguments.of("headroom must not be negative", "queue.yml", """
                        queue:
                          headroom_mb: -5
                        """, "~/.nvidb/queue.yml:2: 'headroom_mb' must be a non-negative integer, got -5", null),
                Arguments.of("bad placement", "queue.yml", """
                        queue:
                          placement: random
                        """, "~/.nvidb/queue.yml:2: 'placement' must be one of spread, pack, got \"random\"", "spread"),
                Arguments.of("remote without host", "queue.yml", """
                        remote:
                          nvidb: /usr/bin/nvidb
                        """, "~/.nvidb/queue.yml:2: 'remote' has no 'host'", "host:"),
                Arguments.of("remote keeper neither ensure nor off", "queue.yml", """
                        remote:
                          host: q
                          keeper: always
                        """, "~/.nvidb/queue.yml:3: 'keeper' must be ensure or off, got \"always\"", "ensure:"),
                Arguments.of("remote nvidb_home not absolute", "queue.yml", """
                        remote:
                          host: q
                          nvidb_home: .nvidb
                        """, "~/.nvidb/queue.yml:3: 'nvidb_home' must be an absolute directory on the queue host "
                                + "(or ~/...), got \".nvidb\"", "leave it out"),
                Arguments.of("remote key misspelt", "queue.yml", """
                        remote:
                          host: q
                          nvidb_hom: /x
                        """, "~/.nvidb/queue.yml:3: unknown key 'nvidb_hom' in remote (did you mean 'nvidb_home'?)",
                        "valid keys: host, nvidb, port, username, nvidb_home, keeper"),
                Arguments.of("hostname that ssh would read as an option", "queue.yml", """
                        servers:
                          - hostname: -oProxyCommand=evil
                        """, "~/.nvidb/queue.yml:2: 'hostname' must be a host name, address or ssh alias without spaces "
                                + "or a leading '-', got \"-oProxyCommand=evil\"", null),
                Arguments.of("bad proxyjump chain", "config.yml", """
                        servers:
                          - hostname: gpu-a
                            proxyjump: "login-a,,login-b"
                        """, "~/.nvidb/config.yml:3: 'proxyjump' must be a host or a comma-separated chain of "
                                + "[user@]host[:port], got \"login-a,,login-b\"", "login-a,alice@login-b:2222"),
                Arguments.of("view mode", "config.yml", """
                        view:
                          mode: grid
                        """, "~/.nvidb/config.yml:2: 'mode' must be one of per-node, unified, got \"grid\"", null),
                Arguments.of("a Slurm server without a partition", "queue.yml", """
                        servers:
                          - hostname: login
                            kind: slurm
                        """, "~/.nvidb/queue.yml:3: server 'login' is a Slurm server without 'partition'",
                        "partition: gpu"),
                Arguments.of("a Slurm key on a plain server", "queue.yml", """
                        servers:
                          - hostname: gpu-a
                            partition: gpu
                        """, "~/.nvidb/queue.yml:3: 'partition' is a key of a Slurm server, but server 'gpu-a' is not one",
                        "kind: slurm"),
                Arguments.of("an unknown kind", "queue.yml", """
                        servers:
                          - hostname: gpu-a
                            kind: pbs
                        """, "~/.nvidb/queue.yml:3: 'kind' must be ssh or slurm, got \"pbs\"", null),
                Arguments.of("a Slurm value that sbatch would read as an option", "queue.yml", """
                        servers:
                          - hostname: login
                            kind: slurm
                            partition: --wrap
                        """, "~/.nvidb/queue.yml:4: 'partition' must be one word that does not start with '-', got \"--wrap\"",
                        null),
                Arguments.of("string expected", "config.yml", """
                        servers:
                          - hostname: [a, b]
                        """, "~/.nvidb/config.yml:2: 'hostname' must be a string, got a list", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("problems")
    void reportsOneLineWithFileLineAndKey(String name, String file, String yaml, String message, String hint) {
        TempHome temp = TempHome.in(dir);
        if (file.equals("config.yml")) {
            temp.config(yaml);
        } else {
            temp.queue(yaml);
        }
        ConfigException error = assertThrows(ConfigException.class, temp::load);
        assertEquals(message, error.getMessage());
        assertTrue(!error.getMessage().contains("\n"), "one line");
        if (hint != null) {
            assertTrue(error.hint().orElse("").contains(hint), () -> "hint was: " + error.hint());
        }
    }
}
