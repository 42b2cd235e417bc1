package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nvidb.error.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one shell quoter: its exact output, and nasty strings given to real {@code sh} and
 * {@code bash}, which must hand back the same bytes and run nothing.
 */
class ShellQuoteTest {

    /** Spaces, quotes, newlines, substitutions, globs, control and non-ASCII characters; PWNED is a file. */
    private static final List<String> NASTY = List.of("", " ", "two  words", "it's", "'", "''", "\"", "\\",
            "\\'", "$(touch PWNED)", "`touch PWNED`", "${HOME} $1 $@ $$", "*", "?[a]", "~", "~root", "-n", "--",
            "line1\nline2\n", "\r\n\t", "\u0001\u001b[31m\u007f", "; touch PWNED #", "a && touch PWNED",
            "x' ; touch PWNED ; '", "ünï ß 日本 🚀 e\u0301", "\u00ff\u0080", "!event", "{a,b}", "a=b", "%s\\0");

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "plain           | 'plain'             | plain",
        "it's            | 'it'\\''s'          | 'it'\\''s'",
        "$(x) `y` ;z     | '$(x) `y` ;z'       | '$(x) `y` ;z'",
        "'               | ''\\'''             | ''\\'''",
        "a/b-c_d.e:f=g,h | 'a/b-c_d.e:f=g,h'   | a/b-c_d.e:f=g,h",
        "~x              | '~x'                | '~x'",
    })
    void quotesWithSingleQuotesAndLeavesPlainWordsBareOnlyWhenAsked(String value, String quoted, String word) {
        assertEquals(quoted, ShellQuote.quote(value));
        assertEquals(word, ShellQuote.word(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sh", "bash"})
    void everyNastyStringComesBackExactlyAndRunsNothing(String shell) throws Exception {
        Path pwned = dir.resolve("pwned");
        List<String> values = NASTY.stream().map(value -> value.replace("PWNED", pwned.toString())).toList();
        StringBuilder script = new StringBuilder();
        for (String value : values) {
            script.append("printf '%s\\0' ").append(ShellQuote.quote(value)).append('\n');
        }
        script.append("printf '%s\\0' ").append(ShellQuote.join(values)).append('\n');

        List<String> printed = run(shell, script.toString());

        List<String> expected = new ArrayList<>(values);
        expected.addAll(values);
        assertEquals(expected, printed);
        assertFalse(Files.exists(pwned), "nothing ran");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\0b", "\0"})
    void aNulByteIsRefusedWithAUserMessage(String value) {
        UsageException refused = assertThrows(UsageException.class, () -> ShellQuote.quote(value));
        assertEquals("a job's name, environment, working directory or command cannot contain a NUL byte",
                refused.getMessage());
    }

    /** Runs the script (written as UTF-8 bytes, so no locale touches it) and splits its output at NULs. */
    private List<String> run(String shell, String script) throws IOException, InterruptedException {
        Path file = dir.resolve("script.sh");
        Files.write(file, script.getBytes(StandardCharsets.UTF_8));
        Process process = new ProcessBuilder(shell, file.toString()).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertEquals(true, process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
        List<String> fields = new ArrayList<>();
        ByteArrayOutputStream field = new ByteArrayOutputStream();
        for (byte b : out) {
            if (b == 0) {
                fields.add(field.toString(StandardCharsets.UTF_8));
                field.reset();
            } else {
                field.write(b);
            }
        }
        assertArrayEquals(new byte[0], field.toByteArray(), "output ends with a NUL");
        return fields;
    }
}
