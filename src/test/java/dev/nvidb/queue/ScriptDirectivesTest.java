package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code #nvidb} lines at the top of a {@code --script} file. */
class ScriptDirectivesTest {

    @Test
    void directivesAreReadUntilTheFirstCommandLine() {
        String script = "#!/bin/bash\n#nvidb --gpus=2\n\n# a comment\n#nvidb --vram 20G --name=x\npython a.py\n#nvidb --gpus=4\n";
        assertEquals(List.of(new ScriptDirectives.Directive("--gpus", "2", 2),
                        new ScriptDirectives.Directive("--vram", "20G", 5),
                        new ScriptDirectives.Directive("--name", "x", 5)),
                ScriptDirectives.parse(script, "run.sh"));
    }

    @Test
    void aCommentThatMerelyStartsWithNvidbIsAComment() {
        assertEquals(List.of(), ScriptDirectives.parse("#nvidbish --gpus=2\necho\n", "run.sh"));
    }

    @Test
    void anUnknownOrEmptyDirectiveNamesTheFileAndLine() {
        UsageException unknown = assertThrows(UsageException.class,
                () -> ScriptDirectives.parse("#!/bin/sh\n#nvidb --gpu=2\n", "run.sh"));
        assertEquals("--script run.sh line 2: unknown directive --gpu", unknown.getMessage());
        UsageException missing = assertThrows(UsageException.class,
                () -> ScriptDirectives.parse("#nvidb --name\n", "run.sh"));
        assertTrue(missing.getMessage().startsWith("--script run.sh line 1: --name needs a value"), missing.getMessage());
    }
}
