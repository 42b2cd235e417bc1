package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.PcieSnapshot;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PcieLinkTest {

    @ParameterizedTest(name = "{0}.0x{1} carries {2} GB/s per direction")
    @CsvSource({
        "1, 1,  0.25",
        "1, 16, 4.0",
        "2, 16, 8.0",
        "3, 1,  0.984615",
        "3, 16, 15.753846",
        "4, 4,  7.876923",
        "4, 16, 31.507692",
        "5, 16, 63.015385",
        "6, 1,  7.5625",
        "6, 16, 121.0",
    })
    void bandwidthIsLanesTimesTheGenerationsUsableLaneRate(int generation, int width, double gigabytes) {
        assertEquals(gigabytes, new PcieLink(generation, width).gigabytesPerSecond().orElseThrow(), 1e-6);
    }

    @Test
    void aGenerationNewerThanTheTableHasNoBandwidthButAName() {
        PcieLink future = new PcieLink(7, 16);

        assertEquals(Optional.empty(), future.bytesPerSecond());
        assertEquals("7.0x16", future.label());
    }

    @ParameterizedTest
    @CsvSource({"4, 16, 4.0x16", "4, 4, 4.0x4", "1, 8, 1.0x8", "5, 16, 5.0x16"})
    void isNamedAsPcieToolsNameIt(int generation, int width, String label) {
        assertEquals(label, new PcieLink(generation, width).label());
    }

    @Test
    void currentAndMaxComeFromTheSnapshotOnlyWhenBothFiguresAreKnown() {
        PcieSnapshot pcie = new PcieSnapshot(4, 16, 5, null, 1L, 2L);

        assertEquals(Optional.of(new PcieLink(4, 16)), PcieLink.current(pcie));
        assertEquals(Optional.empty(), PcieLink.max(pcie));
        assertEquals(Optional.empty(), PcieLink.current(PcieSnapshot.UNKNOWN));
        assertEquals(Optional.empty(), PcieLink.of(0, 16), "a link that is down reports generation 0");
        assertEquals(Optional.empty(), PcieLink.of(4, 0));
    }

    @Test
    void refusesALinkWithoutLanes() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new PcieLink(4, 0));
        assertTrue(refused.getMessage().contains("4x0"), refused.getMessage());
    }
}
