package dev.nvidb.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.UsageException;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --array} expansion: ranges, steps, lists, the cap, and what is refused. */
class ArraySpecTest {

    @Test
    void aRangeWithACapIsEveryIndexAndTheCap() {
        ArraySpec spec = ArraySpec.parse("0-99%8");
        assertEquals(IntStream.rangeClosed(0, 99).boxed().toList(), spec.indices());
        assertEquals(8, spec.cap());
    }

    @Test
    void stepsListsAndSinglesMix() {
        assertEquals(List.of(0, 5, 10, 15, 20), ArraySpec.parse("0-20:5").indices());
        assertEquals(List.of(1, 3, 5), ArraySpec.parse("1,3,5").indices());
        assertEquals(List.of(7, 0, 1), ArraySpec.parse("7,0-1").indices());
        assertNull(ArraySpec.parse("3").cap());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "5-1|ends before it starts",
            "0-9:0|a step must be at least 1",
            "1,1|index 1 is given twice",
            "a-b|is not N, A-B or A-B:STEP",
            "0-9%0|the cap after % must be a whole number of at least 1",
            "0-9%x|the cap after %",
            "%4|no indices",
            "0-10000|more than 10000 cells"})
    void badSpecsAreOneClearUsageError(String text, String message) {
        UsageException error = assertThrows(UsageException.class, () -> ArraySpec.parse(text));
        assertTrue(error.getMessage().contains(message), error.getMessage());
        assertTrue(error.getMessage().startsWith("--array "), error.getMessage());
    }

    @Test
    void tenThousandCellsAreTheLimit() {
        assertEquals(10_000, ArraySpec.parse("0-9999").indices().size());
    }
}
