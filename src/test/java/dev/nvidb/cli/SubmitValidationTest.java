package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The submit refuses every job that its launch would refuse later (issue 7, item 3): every
 * {@code NVIDB_*} name, a NUL byte in any stored string (command, words, --script contents,
 * environment, name, note, tags, working directory), a command or variable over Linux's
 * limit for one argument, a timeout whose deadline overflows. One line, exit 2, nothing stored.
 */
class SubmitValidationTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithOneJob() throws Exception {
        env = CliRun.localQueue(home);
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", "true").exitCode());
        Files.write(home.resolve("nul.sh"), "echo a\0b\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.write(home.resolve("latin1.sh"), new byte[] {'e', 'c', 'h', 'o', ' ', (byte) 0xe9, '\n'});
        Files.writeString(home.resolve("huge.sh"), "echo " + "x".repeat(200_000) + "\n");
    }

    private static final String BIG = "y".repeat(128 * 1024);

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("NVIDB_FOO", new String[] {"--env", "NVIDB_FOO=1", "--", "x"}, "--env cannot set NVIDB_FOO"),
                Arguments.of("NVIDB_", new String[] {"--env", "NVIDB_=1", "--", "x"}, "--env cannot set NVIDB_"),
                Arguments.of("CUDA_DEVICE_ORDER", new String[] {"--env", "CUDA_DEVICE_ORDER=x", "--", "x"}, "--env cannot set"),
                Arguments.of("NUL in command", new String[] {"--", "echo a\0b"}, "NUL byte"),
                Arguments.of("NUL in a word", new String[] {"--", "echo", "a\0b"}, "NUL byte"),
                Arguments.of("NUL in env value", new String[] {"--env", "A=a\0b", "--", "x"}, "NUL byte"),
                Arguments.of("NUL in name", new String[] {"--name", "a\0b", "--", "x"}, "NUL byte"),
                Arguments.of("NUL in note", new String[] {"--note", "a\0b", "--", "x"}, "NUL byte"),
                Arguments.of("NUL in tag", new String[] {"--tag", "a\0b", "--", "x"}, "NUL byte"),
                Arguments.of("NUL in workdir", new String[] {"--workdir", "/tmp/a\0b", "--", "x"}, "NUL byte"),
                Arguments.of("NUL in --script", new String[] {"--script", "~/nul.sh"}, "--script ~/nul.sh contains a NUL byte"),
                Arguments.of("non-UTF-8 --script", new String[] {"--script", "~/latin1.sh"}, "is not UTF-8 text"),
                Arguments.of("huge --script", new String[] {"--script", "~/huge.sh"}, "MAX_ARG_STRLEN"),
                Arguments.of("huge command", new String[] {"--", "echo " + BIG}, "MAX_ARG_STRLEN"),
                Arguments.of("huge variable", new String[] {"--env", "A=" + BIG, "--", "x"}, "MAX_ARG_STRLEN"),
                Arguments.of("huge environment", hugeEnvironment(), "2 MiB"),
                Arguments.of("huge name", new String[] {"--name", "n".repeat(2000), "--", "x"}, "--name is 2000"),
                Arguments.of("unpaired surrogate", new String[] {"--", "echo \ud800"}, "is not valid UTF-8"), // refused as an argument
                Arguments.of("timeout overflows", new String[] {"--timeout", "9223372036854775807", "--", "x"},
                        "is not a whole number of seconds")); // refused by the option's converter
    }

    private static String[] hugeEnvironment() {
        String[] args = new String[2 * 10 + 2];
        for (int i = 0; i < 10; i++) {
            args[2 * i] = "--env";
            args[2 * i + 1] = "V" + i + "=" + "z".repeat(120 * 1024);
        }
        args[20] = "--";
        args[21] = "x";
        return args;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void isOneLineExitTwoAndStoresNothing(String what, String[] args, String message) {
        String[] command = new String[args.length + 3];
        command[0] = "job";
        command[1] = "submit";
        command[2] = "--no-tick";
        System.arraycopy(args, 0, command, 3, args.length);
        CliRun run = CliRun.run(env, command);
        assertEquals(2, run.exitCode(), what + ": " + run.stderr());
        String first = run.stderr().lines().findFirst().orElse("");
        assertTrue(first.startsWith("nvidb: ") && first.contains(message), what + ": " + run.stderr());
        assertFalse(run.stderr().contains("\tat "), "no stack trace: " + run.stderr());
        CliRun list = CliRun.run(env, "job", "ls", "--no-tick", "--json");
        assertTrue(list.stdout().contains("\"count\" : 1"), "still exactly one job: " + list.stdout());
    }

    @Test
    void aCommandJustWithinTheLimitIsQueued() {
        String command = "echo " + "x".repeat(128 * 1024 - 1 - 5);
        CliRun run = CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--", command);
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(0, CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--env", "NVIDB=1", "--env",
                "MY_NVIDB_X=1", "--", "true").exitCode(), "only the NVIDB_ prefix is the queue's");
    }
}
