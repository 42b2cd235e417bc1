package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code job submit --help} says about the words after {@code --} is what happens: a
 * single word is a shell command line, several words are quoted one by one.
 */
class SubmitWordsTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queue() throws Exception {
        env = CliRun.localQueue(home);
    }

    private String stored(String... words) throws Exception {
        String[] args = new String[5 + words.length];
        System.arraycopy(new String[] {"job", "submit", "--no-tick", "--json", "--"}, 0, args, 0, 5);
        System.arraycopy(words, 0, args, 5, words.length);
        CliRun run = CliRun.run(env, args);
        assertEquals(0, run.exitCode(), run.stderr());
        return new ObjectMapper().readTree(run.stdout()).findValue("command").asText();
    }

    @Test
    void aSingleWordIsAShellLineAndSeveralWordsAreRunExactly() throws Exception {
        assertEquals("echo a; echo b", stored("echo a; echo b"));
        assertEquals("python train.py --lr 1e-3", stored("python train.py --lr 1e-3"));
        assertEquals("echo 'a; b'", stored("echo", "a; b"));
        assertEquals("python train.py --lr 1e-3", stored("python", "train.py", "--lr", "1e-3"));
    }

    @Test
    void theHelpSaysSo() {
        CliRun help = CliRun.run(env, "job", "submit", "--help");
        String text = help.stdout().replaceAll("\\s+", " ");
        assertTrue(text.contains("Several words after -- run exactly as given"), help.stdout());
        assertTrue(text.contains("A single word after -- is a command line run by the shell"), help.stdout());
    }
}
