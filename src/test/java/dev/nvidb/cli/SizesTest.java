package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.UsageException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {

    @ParameterizedTest
    @CsvSource({"20G, 20480", "20GiB, 20480", "20gb, 20480", "1.5G, 1536", "512M, 512", "512MiB, 512",
            "24576, 24576", "0, 0", "1T, 1048576", "1024k, 1", "1k, 1", "' 8G ', 8192"})
    void readsSizes(String text, long expected) {
        assertEquals(expected, Sizes.mebibytes(text, "--vram"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"20X", "-5G", "", "G", "1.2.3G", "twenty", "5 G B"})
    void refusesWhatIsNotASize(String text) {
        UsageException error = assertThrows(UsageException.class, () -> Sizes.mebibytes(text, "--vram"));
        assertTrue(error.getMessage().startsWith("--vram takes a size such as 20G"), error.getMessage());
        assertTrue(error.getMessage().endsWith("got '" + text + "'"), error.getMessage());
    }
}
