package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.FakeGpuState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's compiled code kept on the node ({@code ~/.nvidb/agent}): written by the first
 * start, run by the next ones instead of compiling the script again, and ignored when someone
 * else could have written it. Runs the real bootstrap under python3, as a node does.
 */
class AgentCodeCacheTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    private final AgentScript script = AgentScript.bundled();

    @Test
    void theFirstStartKeepsTheCompiledScriptAndTheNextRunsIt() throws Exception {
        assertTrue(probe().at("/node/hostname").isTextual(), "a real reply, from the compiled script");
        Path kept = onlyCodeFile();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept.getParent())));

        // Put other code under the script's name: the next start runs what is kept, not the script.
        replaceWithCodePrinting(kept, "{\"kept\": true}");
        assertTrue(probe().path("kept").asBoolean(), "the kept code ran");
    }

    @Test
    void codeOthersCouldHaveWrittenIsNotRunButReplaced() throws Exception {
        probe();
        Path kept = onlyCodeFile();
        replaceWithCodePrinting(kept, "{\"kept\": true}");
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-rw-rw-"));
        JsonNode reply = probe();
        assertTrue(reply.path("kept").isMissingNode(), "group- or world-writable code is never run: " + reply);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(onlyCodeFile())),
                "compiled and kept again, privately");
    }

    @Test
    void aDamagedFileMeansCompilingAsWithoutOne() throws Exception {
        probe();
        Files.write(onlyCodeFile(), new byte[] {1, 2, 3});
        assertTrue(probe().at("/node/hostname").isTextual(), "the script compiled and answered");
    }

    @Test
    void anAgentStartedWithoutKeepingRunsKeptCodeButWritesNone() throws Exception {
        assertTrue(probe(script.withoutKeeping()).at("/node/hostname").isTextual());
        assertTrue(Files.notExists(home.resolve(".nvidb")), "nothing written on the node");
        probe();
        replaceWithCodePrinting(onlyCodeFile(), "{\"kept\": true}");
        assertTrue(probe(script.withoutKeeping()).path("kept").asBoolean(), "kept code is still used");
    }

    @Test
    void anAgentStartedWithoutKeepingKeepsItsCompiledCodeWhenARequestAsks() throws Exception {
        assertTrue(probe(script.withoutKeeping(), "{\"keep_code\": true, \"snapshot\": false}")
                .at("/node/hostname").isTextual(), "asked to keep, it still answers the request");
        Path kept = onlyCodeFile();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
        replaceWithCodePrinting(kept, "{\"kept\": true}");
        assertTrue(probe().path("kept").asBoolean(), "the next start runs what it kept");

        // One that ran kept code has nothing to write: what is kept stays as it is.
        assertTrue(probe(script.withoutKeeping(), "{\"keep_code\": true}").path("kept").asBoolean());
        assertTrue(probe().path("kept").asBoolean());
    }

    @Test
    void aKeepingStartIgnoresTheRequestAndAnUnaskedReadOnlyStartWritesNothing() throws Exception {
        assertTrue(probe(script.withoutKeeping(), "{\"keep_code\": false, \"snapshot\": false}")
                .at("/node/hostname").isTextual());
        assertTrue(Files.notExists(home.resolve(".nvidb")), "only true asks");
        assertTrue(probe(script, "{\"keep_code\": true, \"snapshot\": false}").at("/node/hostname").isTextual());
        onlyCodeFile();
    }

    private JsonNode probe() throws Exception {
        return probe(script);
    }

    private JsonNode probe(AgentScript script) throws Exception {
        return probe(script, "{\"snapshot\": false}");
    }

    /** One {@code --once} probe through the bootstrap, with this test's HOME; its reply. */
    private JsonNode probe(AgentScript script, String request) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(python(), "-S", "-c", AgentScript.bootstrap(), "--once");
        builder.environment().putAll(FakeGpuState.environment(home.resolve("gpus.state")));
        builder.environment().put("HOME", home.toString());
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process agent = builder.start();
        agent.getOutputStream().write(script.onceInput(request));
        agent.getOutputStream().close();
        String out = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(agent.waitFor(30, TimeUnit.SECONDS));
        return JSON.readTree(out);
    }

    private Path onlyCodeFile() throws Exception {
        try (Stream<Path> files = Files.list(home.resolve(".nvidb/agent"))) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), "one kept file: " + all);
            assertTrue(all.get(0).getFileName().toString().endsWith(".code"), all.toString());
            return all.get(0);
        }
    }

    /** Writes, with python3's marshal, code that prints {@code line} over {@code file}. */
    private static void replaceWithCodePrinting(Path file, String line) throws Exception {
        replaceWithCodePrinting(python(), file, line);
    }

    /** Writes, with {@code python}'s marshal (each version has its own format), code that prints {@code line}. */
    static void replaceWithCodePrinting(String python, Path file, String line) throws Exception {
        Process process = new ProcessBuilder(python, "-S", "-c",
                "import marshal,sys;marshal.dump(compile('print(' + repr(sys.argv[2]) + ')','x','exec'),"
                        + "open(sys.argv[1],'wb'))", file.toString(), line)
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), out);
    }

    private static String python() {
        return System.getProperty("nvidb.python", "/usr/bin/python3");
    }
}
