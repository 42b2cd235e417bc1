package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.testing.OldPythons;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The agent's Python unit tests (src/test/python: its pure parts, no NVML, files or processes),
 * under the build's python3 and under the oldest python3 the agent supports.
 */
class AgentPythonUnitTest {

    @Test
    void passUnderTheBuildsPython() throws Exception {
        assertPasses(Path.of(System.getProperty("nvidb.python", "/usr/bin/python3")));
    }

    @Test
    void passUnderTheOldestSupportedPython() throws Exception {
        assertPasses(OldPythons.interpreter(OldPythons.SUPPORTED.get(0)));
    }

    private static void assertPasses(Path python) throws Exception {
        Path project = Path.of(System.getProperty("nvidb.project.dir", ".")).toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(python.toString(), "-m", "unittest", "discover", "-v",
                "-s", project.resolve("src/test/python").toString()).redirectErrorStream(true);
        builder.environment().put("NVIDB_AGENT", AgentSource.path().toAbsolutePath().toString());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), out);
        assertTrue(out.contains("\nOK") && out.matches("(?s).*Ran [1-9][0-9]* tests.*"), out);
    }
}
