package dev.nvidb.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobsEndWithTheirTestTest {

    @TempDir
    Path dir;

    @Test
    void anOrphanWorkingInTheTestsDirectoryIsFoundAndTheJvmsOwnChildrenAreNot() throws Exception {
        // an orphan, as a wrapper is: the shell that starts it exits at once
        new ProcessBuilder("/bin/sh", "-c", "cd \"$0\" && (setsid sleep 30 >/dev/null 2>&1 &)", dir.toString())
                .start().waitFor();
        Process child = new ProcessBuilder("sleep", "30").directory(dir.toFile()).start();
        try {
            List<ProcessHandle> strays = Polling.strays(dir);
            assertEquals(1, strays.size(), strays.toString());
            assertTrue(strays.get(0).pid() != child.pid());
            ProcessHandle orphan = strays.get(0);
            orphan.destroyForcibly();
            orphan.onExit().get();
            assertTrue(JobsEndWithTheirTest.strays(List.of(dir)).isEmpty());
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    private static final class Polling {
        static List<ProcessHandle> strays(Path dir) throws InterruptedException {
            for (int i = 0; i < 100; i++) {
                List<ProcessHandle> found = JobsEndWithTheirTest.strays(List.of(dir));
                if (!found.isEmpty()) {
                    return found;
                }
                Thread.sleep(20); // a poll with a deadline
            }
            return List.of();
        }
    }
}
