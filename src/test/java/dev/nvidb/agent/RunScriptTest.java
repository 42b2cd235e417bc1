package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.UsageException;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * run.sh rendering: what is quoted how, then the rendered script run by bash in an attempt
 * directory, checking that the job sees exactly its environment and arguments and that
 * nothing a user typed runs outside the user's own command.
 */
class RunScriptTest {

    /** Values that would run code or split words if any were not quoted; PWNED is a file path. */
    private static final List<String> NASTY = List.of("$(touch PWNED)", "`touch PWNED`", "a; touch PWNED",
            "x' ; touch PWNED ; '", "line1\nline2\n", "it's \"quoted\" \\n \\", "emoji 🚀 ü ß", "$HOME ${PATH} $1 *",
            "-n", "");

    @TempDir
    Path dir;
    Path home;
    Path attempt;
    Path pwned;

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(dir.resolve("node home"));
        attempt = Files.createDirectories(home.resolve(".nvidb/jobs/12/1"));
        Files.createDirectories(attempt.resolve("work")); // the agent makes it at launch
        pwned = dir.resolve("pwned");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "NULL            | NULL",
        "~               | \"$HOME\"",
        "~/x y           | \"$HOME\"'/x y'",
        "~bob/data       | ~bob'/data'",
        "~bob            | ~bob",
        "/abs/it's       | '/abs/it'\\''s'",
        "rel/dir         | \"$HOME\"/'rel/dir'",
        "~$(id)/x        | \"$HOME\"/'~$(id)/x'",
    })
    void workdirIsExpandedOnTheNode(String workdir, String word) {
        assertEquals(Optional.ofNullable(word), RunScript.workdir(workdir));
    }

    @Test
    void nastyNamesAndEnvironmentValuesReachTheJobExactly() throws Exception {
        for (String value : NASTY) {
            String nasty = value.replace("PWNED", pwned.toString());
            Map<String, String> env = new LinkedHashMap<>();
            env.put("MY_VAR", nasty);
            env.put("_other2", "x");
            String printEnv = "printf '%s\\0' \"$NVIDB_JOB_NAME\" \"$MY_VAR\" \"$_other2\" \"$#\"";

            Run run = run(spec(nasty, printEnv, null, env), assignment(List.of()));

            assertEquals(0, run.exit, run.stderr);
            assertEquals(List.of(nasty, nasty, "x", "0"), run.fields(), "value " + value);
            assertFalse(Files.exists(pwned), "a value ran as code: " + value);
        }
    }

    @Test
    void nastyCommandArgumentsAreKeptExactly() throws Exception {
        for (String value : NASTY) {
            String nasty = value.replace("PWNED", pwned.toString());
            String command = "printf '%s\\0' " + ShellQuote.quote(nasty) + " \"two words\"";

            Run run = run(spec("n", command, null, Map.of()), assignment(List.of(0)));

            assertEquals(List.of(nasty, "two words"), run.fields(), "value " + value);
            assertFalse(Files.exists(pwned));
        }
    }

    @Test
    void jobSeesItsGpusIdsAndDirectories() throws Exception {
        String command = "printf '%s\\0' \"$CUDA_VISIBLE_DEVICES\" \"$CUDA_DEVICE_ORDER\" \"$NVIDB_JOB_ID\" "
                + "\"$NVIDB_ATTEMPT\" \"$NVIDB_NODE\" \"$NVIDB_JOB_DIR\" \"$NVIDB_STATUS_FILE\" \"$PWD\"";

        Run run = run(spec("n", command, null, Map.of()), assignment(List.of(0, 2)));

        String jobDir = attempt.toRealPath().toString();
        assertEquals(List.of("0,2", "PCI_BUS_ID", "12", "3", "gpu-a 'node'", jobDir, jobDir + "/status",
                jobDir + "/work"), run.fields(), "without --workdir the job runs in work/ beside the queue's files");
    }

    @Test
    void cpuOnlyJobSeesNoGpu() throws Exception {
        Run run = run(spec("n", "printf '%s\\0' \"${CUDA_VISIBLE_DEVICES-unset}\"", null, Map.of()),
                assignment(List.of()));

        assertEquals(List.of(""), run.fields(), "set, and empty");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "~/x y/z  | x y/z",
        "~        | ''",
        "rel dir  | rel dir",
    })
    void workdirUnderTheNodesHome(String workdir, String underHome) throws Exception {
        Path expected = Files.createDirectories(home.resolve(underHome)).toRealPath();

        Run run = run(spec("n", "pwd -P | tr -d '\\n'", workdir, Map.of()), assignment(List.of()));

        assertEquals(0, run.exit, run.stderr);
        assertEquals(expected.toString(), run.stdout);
    }

    @Test
    void absoluteWorkdirWithQuotes() throws Exception {
        Path target = Files.createDirectories(dir.resolve("it's $(here)"));

        Run run = run(spec("n", "pwd | tr -d '\\n'", target.toString(), Map.of()), assignment(List.of()));

        assertEquals(target.toRealPath().toString(), run.stdout);
    }

    @Test
    void missingWorkdirFailsClearlyWithoutRunningTheCommand() throws Exception {
        Run run = run(spec("n", "touch " + ShellQuote.quote(pwned.toString()), "~/no such dir", Map.of()),
                assignment(List.of()));

        assertEquals(RunScript.EXIT_NO_WORKDIR, run.exit);
        assertTrue(run.stderr.contains("nvidb: cannot enter the working directory " + home + "/no such dir"),
                run.stderr);
        assertFalse(Files.exists(pwned));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1X", "A-B", "A B", "", "X=Y", "NVIDB_JOB_ID", "NVIDB_ANYTHING", "CUDA_VISIBLE_DEVICES",
        "CUDA_DEVICE_ORDER", "É"})
    void invalidOrReservedEnvironmentNamesAreRefused(String name) {
        assertTrue(RunScript.checkEnvName(name).isPresent());
        assertThrows(UsageException.class,
                () -> RunScript.render(1, spec("n", "true", null, Map.of(name, "v")), assignment(List.of())));
    }

    @Test
    void nulByteIsRefused() {
        assertThrows(UsageException.class,
                () -> RunScript.render(1, spec("n", "echo \0", null, Map.of()), assignment(List.of())));
    }

    // --- helpers ---

    private static JobSpec spec(String name, String command, String workdir, Map<String, String> env) {
        return new JobSpec(name, command, 0, 0, null, workdir, env, List.of(), null, 0, List.of(), "t@h");
    }

    private static Assignment assignment(List<Integer> gpus) {
        return new Assignment("gpu-a 'node'", gpus, List.of(), 3, "token");
    }

    private Run run(JobSpec spec, Assignment assignment) throws Exception {
        Files.writeString(attempt.resolve("run.sh"), RunScript.render(12, spec, assignment));
        ProcessBuilder builder = new ProcessBuilder("bash", "run.sh").directory(attempt.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("HOME", home.toString());
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process process = builder.start();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(process.waitFor(), stdout, stderr);
    }

    private record Run(int exit, String stdout, String stderr) {
        List<String> fields() {
            return Arrays.asList(stdout.split("\0", -1)).subList(0, stdout.split("\0", -1).length - 1);
        }
    }
}
