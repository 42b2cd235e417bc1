package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bytes in arguments are kept exactly or refused, never silently replaced: a word that is not
 * UTF-8 (or that the JVM could not decode) is refused with one line before anything is stored,
 * and {@code bin/nvidb} starts the JVM in a UTF-8 locale when the caller's has none (a POSIX
 * locale used to turn every non-ASCII byte into U+FFFD). Run through real processes, as
 * ProcessBuilder cannot pass bytes that are not text: {@code /bin/sh -c} with printf.
 */
class ArgumentBytesTest {

    @TempDir
    Path home;

    private Path dir;

    @BeforeEach
    void nvidbHome() throws IOException {
        dir = Files.createDirectories(home.resolve(".nvidb"));
        Files.writeString(dir.resolve("queue.yml"), "queue:\n  local_node_name: here\n");
    }

    private record Ran(int code, String stdout, String stderr) {
    }

    /** Runs {@code script} with {@code sh -c} in a POSIX locale (LANG and LC_* unset); {@code $JVM} runs nvidb's Main. */
    private Ran sh(String script, Map<String, String> extra) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c",
                script.replace("$JVM", "\"$JAVA_BIN\" -cp \"$CP\" dev.nvidb.cli.Main"));
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.equals("LANG") || name.startsWith("LC_"));
        env.put("HOME", home.toString());
        env.put("NVIDB_HOME", dir.toString());
        env.put("JAVA_BIN", java);
        env.put("CP", System.getProperty("java.class.path"));
        env.putAll(extra);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Ran(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "job submit --no-tick --gpus 0 -- echo \"$(printf 'a\\377b')\"",
            "job submit --no-tick --gpus 0 --name \"$(printf 'n\\377')\" -- true",
            "job submit --no-tick --gpus 0 --note \"$(printf '\\303(')\" -- true",
            "job submit --no-tick --gpus 0 --env \"A=$(printf '\\377')\" -- true",
            "job submit --no-tick --gpus 0 --tag \"$(printf '\\355\\240\\200')\" -- true"})
    void aWordThatIsNotUtf8IsRefusedAndNothingIsStored(String command) throws Exception {
        Ran ran = sh("LC_ALL=C.UTF-8 $JVM " + command, Map.of());
        assertEquals(2, ran.code(), ran.stderr());
        assertTrue(ran.stderr().startsWith("nvidb: ") && ran.stderr().contains("not valid UTF-8"), ran.stderr());
        assertFalse(ran.stderr().contains("\tat "), ran.stderr());
        Ran list = sh("LC_ALL=C.UTF-8 $JVM job ls --no-tick --json", Map.of());
        assertTrue(list.stdout().contains("\"count\" : 0"), list.stdout());
    }

    @Test
    void theJvmAloneInAPosixLocaleRefusesRatherThanReplaces() throws Exception {
        Ran ran = sh("$JVM job submit --no-tick --gpus 0 -- echo \"$(printf '\\303\\251')\"", Map.of());
        assertEquals(2, ran.code(), ran.stderr());
        assertTrue(ran.stderr().contains("not valid UTF-8"), ran.stderr());
    }

    @Test
    void validUtf8IsKeptExactly() throws Exception {
        Ran ran = sh("LC_ALL=C.UTF-8 $JVM job submit --no-tick --gpus 0 --name \"$(printf 'caf\\303\\251')\" -- echo "
                + "\"$(printf '\\360\\237\\232\\200 \\344\\270\\255')\"", Map.of());
        assertEquals(0, ran.code(), ran.stderr());
        Ran show = sh("LC_ALL=C.UTF-8 $JVM job show 1 --no-tick --json", Map.of());
        assertTrue(show.stdout().contains("\"name\" : \"café\""), show.stdout());
        assertTrue(show.stdout().contains("echo '🚀 中'"), show.stdout());
    }

    /**
     * bin/nvidb hands the JVM every byte as given, in a UTF-8 locale when the caller's is not
     * one (a stand-in {@code java} reports what it got).
     */
    @Test
    void theLauncherGivesTheJvmAUtf8LocaleAndTheBytesAsGiven() throws Exception {
        Path build = Files.createDirectories(home.resolve("build"));
        Files.write(build.resolve("nvidb.jar"), new byte[0]);
        Path fakeJava = home.resolve("fake-java");
        Files.writeString(fakeJava, "#!/bin/sh\nlocale charmap\nfor word in \"$@\"; do printf '%s' \"$word\" | od -An -tx1 | tr -d ' \\n'; echo; done\n");
        assertTrue(fakeJava.toFile().setExecutable(true));
        Path launcher = Path.of(System.getProperty("nvidb.project.dir", "."), "bin", "nvidb").toAbsolutePath();
        Map<String, String> env = Map.of("JAVA", fakeJava.toString(), "NVIDB_BUILD_DIR", build.toString(),
                "NVIDB_NO_BUILD", "1", "NVIDB_NO_CDS", "1");
        for (String locale : List.of("", "LC_ALL=C ", "LANG=C.UTF-8 ")) {
            Ran ran = sh(locale + "'" + launcher + "' job submit -- \"$(printf 'caf\\303\\251 \\377')\"", env);
            assertEquals(0, ran.code(), ran.stderr());
            List<String> lines = ran.stdout().lines().toList();
            assertTrue(lines.get(0).replace("-", "").equalsIgnoreCase("UTF8"), locale + ": " + lines);
            assertEquals(HexFormat.of().formatHex("caf\u00e9 ".getBytes(StandardCharsets.UTF_8)) + "ff",
                    lines.get(lines.size() - 1), locale + ": " + lines);
        }
    }
}
