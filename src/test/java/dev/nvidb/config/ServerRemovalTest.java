package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import dev.nvidb.error.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Removing servers cuts out exactly the lines of their items: every other byte of config.yml
 * (comments, blank lines, line endings, a missing final newline) and of queue.yml stays.
 */
class ServerRemovalTest {

    @TempDir
    Path dir;

    private TempHome temp() {
        return TempHome.in(dir);
    }

    private ConfigWriter writer() {
        return new ConfigWriter(temp().home());
    }

    private String configText() throws IOException {
        return Files.readString(temp().home().configYml());
    }

    static Stream<Arguments> removals() {
        return Stream.of(
                Arguments.of("the middle one, comments around it kept", Set.of("b"), """
                        # my servers
                        basic:
                          remote: true   # always
                        servers:
                          # the big box
                          - hostname: a.lab   # first
                            nickname: a
                          # the middle box
                          - hostname: b.lab
                            nickname: b
                            # a comment inside b
                            gpus: [0, 1]
                          - hostname: c.lab

                        view:
                          mode: unified
                        """, """
                        # my servers
                        basic:
                          remote: true   # always
                        servers:
                          # the big box
                          - hostname: a.lab   # first
                            nickname: a
                          # the middle box
                          - hostname: c.lab

                        view:
                          mode: unified
                        """),
                Arguments.of("the first and the last, dash at column 0", Set.of("a.lab", "c.lab"), """
                        servers:
                        - hostname: a.lab
                          port: 2222
                        - hostname: b.lab
                        - hostname: c.lab
                          gpus:
                            - 0
                            - 1
                        # after the list
                        """, """
                        servers:
                        - hostname: b.lab
                        # after the list
                        """),
                Arguments.of("every one: the list reads as empty", Set.of("a.lab", "b.lab"), """
                        servers:   # none left soon
                          - hostname: a.lab
                          - {hostname: b.lab, port: 22}
                        queue:
                          headroom_mb: 100
                        """, """
                        servers:   # none left soon
                        queue:
                          headroom_mb: 100
                        """),
                Arguments.of("an item whose dash stands alone", Set.of("a.lab"), """
                        servers:
                          -
                            hostname: a.lab
                          - hostname: b.lab
                        """, """
                        servers:
                          - hostname: b.lab
                        """),
                Arguments.of("the last line, no final newline", Set.of("b.lab"),
                        "servers:\n  - hostname: a.lab\n  - hostname: b.lab",
                        "servers:\n  - hostname: a.lab\n"),
                Arguments.of("CRLF line endings", Set.of("a.lab"),
                        "# windows\r\nservers:\r\n  - hostname: a.lab\r\n    port: 22\r\n  - hostname: b.lab\r\n",
                        "# windows\r\nservers:\r\n  - hostname: b.lab\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("removals")
    void removesExactlyTheItemsLines(String name, Set<String> names, String before, String after) throws IOException {
        temp().config(before);
        RemovedServers removed = writer().removeServers(names, true);
        assertEquals(names, Set.copyOf(removed.fromConfigYml()));
        assertEquals(after, configText());
    }

    @Test
    void removesFromQueueYmlsOwnListToo() throws IOException {
        temp().config("servers:\n  - hostname: a.lab\n  - hostname: b.lab\n");
        temp().queue("# queue nodes\nservers:\n  - hostname: b.lab   # shared\n  - hostname: q.lab\nqueue:\n  headroom_mb: 5\n");
        List<ConfiguredServer> listed = writer().listServers();
        assertEquals(List.of("a.lab", "b.lab", "q.lab"), listed.stream().map(ConfiguredServer::name).toList());
        assertEquals(List.of(true, true, false), listed.stream().map(ConfiguredServer::inConfigYml).toList());
        assertEquals(List.of(false, true, true), listed.stream().map(ConfiguredServer::inQueueYml).toList());

        RemovedServers removed = writer().removeServers(Set.of("b.lab", "q.lab"), true);
        assertEquals(List.of("b.lab"), removed.fromConfigYml());
        assertEquals(List.of("b.lab", "q.lab"), removed.fromQueueYml());
        assertEquals("servers:\n  - hostname: a.lab\n", configText());
        assertEquals("# queue nodes\nservers:\nqueue:\n  headroom_mb: 5\n",
                Files.readString(temp().home().queueYml()));
        assertEquals(List.of(), temp().load().queueServers(), "queue.yml's empty servers: is the queue's, still");
    }

    @Test
    void withoutQueueYmlOnlyConfigYmlChanges() throws IOException {
        temp().config("servers:\n  - hostname: b.lab\n");
        String queue = "servers:\n  - hostname: b.lab\n";
        temp().queue(queue);
        writer().removeServers(Set.of("b.lab"), false);
        assertEquals("servers:\n", configText());
        assertEquals(queue, Files.readString(temp().home().queueYml()));
    }

    @Test
    void anUnknownNameChangesNothing() throws IOException {
        String text = "servers:\n  - hostname: a.lab\n";
        temp().config(text);
        UsageException error = assertThrows(UsageException.class,
                () -> writer().removeServers(Set.of("a.lab", "nope"), true));
        assertTrue(error.getMessage().contains("no server named nope"), error.getMessage());
        assertEquals(text, configText(), "a.lab stays too: nothing is written");
    }

    @Test
    void aFlowStyleListIsRefusedWithAHint() throws IOException {
        String text = "servers: [{hostname: a.lab}, {hostname: b.lab}]\n";
        temp().config(text);
        ConfigException error = assertThrows(ConfigException.class, () -> writer().removeServers(Set.of("a.lab"), true));
        assertTrue(error.getMessage().contains("flow-style"), error.getMessage());
        assertEquals(text, configText());
    }
}
