package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run.sh of a local-node job with a recorded environment: the job sees exactly the recorded
 * variables (plus the queue's, which win), none of the launching process's; variables bash owns
 * and names no shell can set are skipped without an error.
 */
class SubmitterEnvironmentTest {

    @TempDir
    Path dir;

    @Test
    void theJobSeesTheRecordedEnvironmentAndNothingInherited() throws Exception {
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("PATH", "/usr/bin:/bin");
        recorded.put("HOME", dir.toString());
        recorded.put("SUB", "a 'b' $(c)\nd");
        recorded.put("UID", "0");
        recorded.put("SHLVL", "9");
        recorded.put("BASH_FUNC_f%%", "() { echo pwned; }");
        recorded.put("NVIDB_JOB_ID", "999");
        JobSpec spec = new JobSpec("n", "env -0", 0, 0, null, null, Map.of("EXTRA", "e"), List.of(), null, 0,
                List.of(), "t@h");
        String script = RunScript.render(12, spec, new Assignment("here", List.of(), List.of(), 1, "token"), recorded);
        Files.writeString(dir.resolve("run.sh"), script);

        Files.createDirectories(dir.resolve("work")); // the agent makes it at launch
        ProcessBuilder builder = new ProcessBuilder("bash", "run.sh").directory(dir.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("TICKER_ONLY", "1");
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), err);
        assertEquals("", err, "no error from a variable bash owns");
        Map<String, String> seen = new HashMap<>();
        for (String entry : out.split("\0")) {
            int equals = entry.indexOf('=');
            if (equals > 0) {
                seen.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        }
        assertEquals(recorded.get("SUB"), seen.get("SUB"));
        assertEquals(dir.toString(), seen.get("HOME"));
        assertEquals("12", seen.get("NVIDB_JOB_ID"), "the queue's variables win");
        assertEquals("e", seen.get("EXTRA"), "--env still applies");
        assertFalse(seen.containsKey("TICKER_ONLY"), "nothing of the launching process stays");
        assertFalse(seen.containsKey("BASH_FUNC_f%%"));
        assertFalse("9".equals(seen.get("SHLVL")), "bash keeps its own level");
    }

    @Test
    void aRecordedEnvironmentWithoutPathKeepsTheNodesPath() throws Exception {
        JobSpec spec = new JobSpec("n", "sleep 0 && printf '%s' \"$PATH|${TICKER_ONLY-unset}\"", 0, 0, null, null,
                Map.of(), List.of(), null, 0, List.of(), "t@h");
        Files.writeString(dir.resolve("run.sh"), RunScript.render(12, spec,
                new Assignment("here", List.of(), List.of(), 1, "token"), Map.of("HOME", dir.toString())));
        Files.createDirectories(dir.resolve("work")); // the agent makes it at launch
        ProcessBuilder builder = new ProcessBuilder("bash", "run.sh").directory(dir.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("TICKER_ONLY", "1");
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), err);
        assertEquals("/usr/bin:/bin|unset", out);
    }
}
