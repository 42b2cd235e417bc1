package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares a rendered document with its golden file under src/test/resources/golden.
 * Run with {@code -Dnvidb.golden.update=true} to rewrite the files after an intended change,
 * then review the diff: the golden files are the JSON contract.
 */
public final class Golden {

    private Golden() {
    }

    public static void assertMatches(String name, String actual) throws IOException {
        Path file = Path.of(System.getProperty("nvidb.project.dir", "."), "src/test/resources/golden", name);
        if (Boolean.getBoolean("nvidb.golden.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual + "\n");
        }
        assertEquals(Files.readString(file).stripTrailing(), actual.stripTrailing(), "golden file " + name);
    }
}
