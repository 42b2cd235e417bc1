package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The agent the jar ships is its parts joined: {@code remote-agent/src}'s files in the order of
 * {@code remote-agent/modules.txt}, each behind a line naming it, two empty lines between them
 * (the format {@code remote-agent/JoinAgent.java} writes, restated here so each holds the other).
 */
class AgentPartsTest {

    private static final Path PROJECT = Path.of(System.getProperty("nvidb.project.dir", ".")).toAbsolutePath();
    private static final Path PARTS = PROJECT.resolve("remote-agent/src");
    private static final Path LIST = PROJECT.resolve("remote-agent/modules.txt");

    @Test
    void theListNamesEveryPartOnceAndNothingElse() throws IOException {
        List<String> listed = listed();
        assertEquals(new TreeSet<>(listed).size(), listed.size(), "a part listed twice: " + listed);
        TreeSet<String> present;
        try (Stream<Path> files = Files.list(PARTS)) {
            present = files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".py"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(present, new TreeSet<>(listed), "modules.txt against the .py files in remote-agent/src");
    }

    @Test
    void theShippedScriptIsThePartsJoinedInTheirOrder() throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (String name : listed()) {
            byte[] part = Files.readAllBytes(PARTS.resolve(name));
            assertTrue(part.length > 0 && part[part.length - 1] == '\n', name + " ends with a newline");
            expected.write((expected.size() > 0 ? "\n\n" : "").getBytes(StandardCharsets.US_ASCII));
            expected.write(("# ---- remote-agent/src/" + name + " ----\n").getBytes(StandardCharsets.US_ASCII));
            expected.write(part);
        }
        byte[] shipped;
        try (InputStream in = AgentScript.class.getResourceAsStream("nvidb_agent.py")) {
            assertNotNull(in, "dev/nvidb/agent/nvidb_agent.py on the class path (the build joins it)");
            shipped = in.readAllBytes();
        }
        assertArrayEquals(expected.toByteArray(), shipped,
                "target/classes/dev/nvidb/agent/nvidb_agent.py is not remote-agent/src joined: rebuild (./mvnw -q generate-resources)");
        assertArrayEquals(shipped, Files.readAllBytes(AgentSource.path()), "the script the other agent tests run is the shipped one");
    }

    @Test
    void everyPartIsWholeStatements() throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getProperty("nvidb.python", "/usr/bin/python3"), "-c",
                "import sys\nfor p in sys.argv[1:]:\n    compile(open(p, encoding='utf-8').read(), p, 'exec')"));
        for (String name : listed()) {
            command.add(PARTS.resolve(name).toString());
        }
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, python.waitFor(), "each part compiles on its own (a part ends where a statement does): " + out);
    }

    private static List<String> listed() throws IOException {
        return Files.readAllLines(LIST, StandardCharsets.UTF_8).stream().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }
}
