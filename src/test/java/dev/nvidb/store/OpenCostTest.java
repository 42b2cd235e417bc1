package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening an up-to-date queue.db is on every command's start-up path; it must stay cheap. */
class OpenCostTest {

    @TempDir
    Path dir;

    @Test
    void openingACurrentDatabaseAndReadingOnceTakesAFewMilliseconds() {
        Path file = dir.resolve("queue.db");
        OpenCostMain.openAndRead(file);
        long[] nanos = new long[50];
        for (int i = 0; i < nanos.length; i++) {
            long start = System.nanoTime();
            OpenCostMain.openAndRead(file);
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        double medianMs = nanos[nanos.length / 2] / 1e6;
        // Measured ~1 ms here; the bound only catches a regression such as re-running migrations.
        assertTrue(medianMs < 25, "median open + read took " + medianMs + " ms");
    }
}
