package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which file wins: servers by presence of the key, queue settings key by key. */
class ConfigPrecedenceTest {

    @TempDir
    Path dir;

    @Test
    void missingFilesGiveDefaultsAndNoServers() {
        NvidbConfig config = TempHome.in(dir).load();
        assertEquals(QueueConfig.defaults(), config.queue());
        assertEquals(BasicConfig.defaults(config.home()), config.basic());
        assertEquals(ViewConfig.defaults(), config.view());
        assertFalse(config.hasServers());
        assertFalse(config.hasQueueServers());
        assertNull(config.remote());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void emptyAndCommentOnlyFilesGiveDefaults() {
        NvidbConfig config = TempHome.in(dir).config("# nothing yet\n").queue("").load();
        assertEquals(QueueConfig.defaults(), config.queue());
        assertFalse(config.hasServers());
    }

    static Stream<Arguments> serverSources() {
        String configServers = "servers:\n  - hostname: mon-a\n  - hostname: mon-b\n";
        return Stream.of(
                Arguments.of("queue.yml absent: config.yml servers", configServers, null,
                        List.of("mon-a", "mon-b"), List.of("mon-a", "mon-b")),
                Arguments.of("queue.yml without servers key", configServers, "queue:\n  lease_seconds: 9\n",
                        List.of("mon-a", "mon-b"), List.of("mon-a", "mon-b")),
                Arguments.of("queue.yml servers win", configServers, "servers:\n  - hostname: q-a\n",
                        List.of("mon-a", "mon-b"), List.of("q-a")),
                Arguments.of("queue.yml empty list means no queue servers", configServers, "servers: []\n",
                        List.of("mon-a", "mon-b"), List.of()),
                Arguments.of("queue.yml key with no value means no queue servers", configServers, "servers:\n",
                        List.of("mon-a", "mon-b"), List.of()),
                Arguments.of("only queue.yml has servers", "", "servers:\n  - hostname: q-a\n",
                        List.of(), List.of("q-a")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverSources")
    void queueUsesQueueYmlServersWhenTheKeyIsPresent(String name, String configYml, String queueYml,
            List<String> monitor, List<String> queue) {
        TempHome temp = TempHome.in(dir).config(configYml);
        if (queueYml != null) {
            temp.queue(queueYml);
        }
        NvidbConfig config = temp.load();
        assertEquals(monitor, config.monitorServers().stream().map(ServerConfig::name).toList());
        assertEquals(queue, config.queueServers().stream().map(ServerConfig::name).toList());
        assertEquals(!monitor.isEmpty(), config.hasServers());
        assertEquals(!queue.isEmpty(), config.hasQueueServers());
    }

    @Test
    void queueSettingsMergeKeyByKey() {
        NvidbConfig config = TempHome.in(dir)
                .config("""
                        queue:
                          lease_seconds: 45
                          headroom_mb: 1024
                          notify:
                            desktop: true
                            command: notify-send-wrapper
                          backup:
                            keep: 3
                        """)
                .queue("""
                        queue:
                          headroom_mb: 2048
                          include_local: true
                          notify:
                            log: false
                          backup:
                            enabled: true
                            directory: ~/queue-backups
                        """)
                .load();
        QueueConfig queue = config.queue();
        assertEquals(45, queue.leaseSeconds(), "config.yml value kept when queue.yml is silent");
        assertEquals(2048, queue.headroomMb(), "queue.yml wins");
        assertTrue(queue.includeLocal());
        assertEquals(2, queue.tickMinInterval(), "default kept when neither file sets it");
        assertEquals(new NotifyConfig(true, false, "notify-send-wrapper"), queue.notifications());
        assertEquals(new BackupConfig(true, 24, 3, dir.resolve("queue-backups")), queue.backup());
    }

    /** The hook as a list (argv), a string split into words without a shell, or a string for /bin/sh -c. */
    @Test
    void theHookIsAListAStringOfWordsOrAShellLine() {
        NotifyConfig list = TempHome.in(dir.resolve("list"))
                .queue("queue:\n  notify:\n    command: [\"/bin/page me\", \"$HOME\"]\n    min_severity: error\n").load()
                .queue().notifications();
        assertEquals(List.of("/bin/page me", "$HOME"), list.hookArgv());
        assertEquals(3, list.minRank());
        NotifyConfig words = TempHome.in(dir.resolve("words"))
                .queue("queue:\n  notify:\n    command: \"page-me 'lab queue' \\\"x y\\\" a\\\\ b $HOME\"\n").load()
                .queue().notifications();
        assertEquals(List.of("page-me", "lab queue", "x y", "a b", "$HOME"), words.hookArgv());
        NotifyConfig shell = TempHome.in(dir.resolve("shell"))
                .queue("queue:\n  notify:\n    command: \"page-me | tee -a $HOME/x\"\n    command_shell: yes\n"
                        + "    command_timeout_seconds: 5\n").load().queue().notifications();
        assertEquals(List.of("/bin/sh", "-c", "page-me | tee -a $HOME/x"), shell.hookArgv());
        assertEquals(5, shell.commandTimeoutSeconds());
        NotifyConfig replaced = TempHome.in(dir.resolve("replaced"))
                .config("queue:\n  notify:\n    command: [a, b]\n")
                .queue("queue:\n  notify:\n    command: c d\n").load().queue().notifications();
        assertEquals(List.of("c", "d"), replaced.hookArgv(), "queue.yml's string replaces config.yml's list");
    }

    @Test
    void queueYmlCanResetANullableKeyToNull() {
        NvidbConfig config = TempHome.in(dir)
                .config("queue:\n  local_node_name: box\n  notify:\n    command: hook\n")
                .queue("queue:\n  local_node_name: null\n  notify:\n    command:\n")
                .load();
        assertNull(config.queue().localNodeName());
        assertNull(config.queue().notifications().command());
    }

    @Test
    void jobRootStaysUnexpandedBecauseTildeIsTheNodesHome() {
        NvidbConfig config = TempHome.in(dir).queue("queue:\n  job_root: ~/scratch/jobs\n").load();
        assertEquals("~/scratch/jobs", config.queue().jobRoot());
    }

    @Test
    void basicAndViewAreReadFromConfigYml() {
        NvidbConfig config = TempHome.in(dir).config("""
                basic:
                  remote: yes
                  host_key_policy: accept-new
                  connect_timeout: 8
                  ssh_config: ~/alt/ssh_config
                view:
                  mode: unified
                  mouse: false
                  filter: busy
                """).load();
        assertTrue(config.basic().remote());
        assertEquals(HostKeyPolicy.ACCEPT_NEW, config.basic().hostKeyPolicy());
        assertEquals(8, config.basic().connectTimeout());
        assertEquals(10, config.basic().authTimeout());
        assertEquals(dir.resolve("alt/ssh_config"), config.basic().sshConfig());
        assertEquals(dir.resolve(".ssh/known_hosts"), config.basic().knownHosts());
        assertEquals(ViewMode.UNIFIED, config.view().mode());
        assertFalse(config.view().mouse());
        assertEquals("busy", config.view().filter());
        assertNull(config.view().detail());
    }

    @Test
    void remoteComesFromQueueYml() {
        NvidbConfig config = TempHome.in(dir).queue("remote:\n  host: qhost\n  port: 2200\n").load();
        assertEquals(new RemoteConfig("qhost", "nvidb", 2200, null), config.remote());
    }

    @Test
    void remoteReadsNvidbHomeAndKeeper() {
        NvidbConfig config = TempHome.in(dir).queue("remote:\n  host: qhost\n  nvidb_home: ~/q\n  keeper: off\n").load();
        assertEquals(new RemoteConfig("qhost", "nvidb", null, null, "~/q", RemoteConfig.Keeper.OFF), config.remote());
        NvidbConfig defaults = TempHome.in(dir).queue("remote:\n  host: qhost\n").load();
        assertEquals(RemoteConfig.Keeper.ENSURE, defaults.remote().keeper());
        assertNull(defaults.remote().nvidbHome());
    }
}
