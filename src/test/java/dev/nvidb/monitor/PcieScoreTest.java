package dev.nvidb.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.PcieSnapshot;
import dev.nvidb.monitor.PcieScore.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PcieScoreTest {

    @Test
    void scoresTrafficAgainstTheLinkTheCardRunsOnNotItsWidest() {
        // The seed's example: 7.34 GB/s received on a 4.0x4 link of a 4.0x16 card.
        PcieScore score = PcieScore.of(new PcieSnapshot(4, 4, 4, 16, 7_340_000L, 393_846L));

        assertEquals(new PcieLink(4, 4), score.link());
        assertEquals(new PcieLink(4, 16), score.maxLink());
        assertEquals(7.876923, score.linkGigabytesPerSecond(), 1e-6);
        assertEquals(7.34, score.rxGigabytesPerSecond(), 1e-9);
        assertEquals(100 * 7.34 / 7.876923, score.rxPercent(), 1e-6);
        assertEquals(5.0, score.txPercent(), 1e-3);
        assertEquals(Level.SATURATED, score.rxLevel());
        assertEquals(Level.NORMAL, score.txLevel());
        assertEquals(score.rxPercent(), score.peakPercent());
        assertTrue(score.belowMax());
    }

    @Test
    void withoutALinkTheThroughputIsKnownButNotScored() {
        PcieScore score = PcieScore.of(new PcieSnapshot(null, 16, null, null, 2_000_000L, null));

        assertNull(score.link());
        assertNull(score.linkGigabytesPerSecond());
        assertEquals(2.0, score.rxGigabytesPerSecond(), 1e-9);
        assertNull(score.rxPercent());
        assertNull(score.txGigabytesPerSecond());
        assertEquals(Level.UNKNOWN, score.rxLevel());
        assertNull(score.peakPercent());
        assertFalse(score.belowMax());
    }

    @Test
    void aLinkNewerThanTheTableIsNamedButNotScored() {
        PcieScore score = PcieScore.of(new PcieSnapshot(7, 16, 7, 16, 1_000L, 1_000L));

        assertEquals("7.0x16", score.link().label());
        assertNull(score.rxPercent());
        assertFalse(score.belowMax());
    }

    @Test
    void anIdleTrafficOfZeroIsZeroPercentNotUnknown() {
        PcieScore score = PcieScore.of(new PcieSnapshot(5, 16, 5, 16, 0L, 0L));

        assertEquals(0.0, score.rxPercent());
        assertEquals(Level.NORMAL, score.txLevel());
        assertEquals(0.0, score.peakPercent());
    }

    @ParameterizedTest
    @CsvSource({"0, NORMAL", "40, NORMAL", "40.1, HIGH", "70, HIGH", "70.01, SATURATED", "130, SATURATED"})
    void levelsAreNormalToFortyHighToSeventyThenSaturated(double percent, Level level) {
        assertEquals(level, Level.of(percent));
    }

    @Test
    void anUnknownShareHasAnUnknownLevel() {
        assertEquals(Level.UNKNOWN, Level.of(null));
    }

    @ParameterizedTest
    @CsvSource({"1, 16, 4, 16, true", "4, 8, 4, 16, true", "4, 16, 4, 16, false", "5, 16, 4, 16, false"})
    void belowMaxWhenSlowerOrNarrowerThanAllowed(int gen, int width, int maxGen, int maxWidth, boolean below) {
        assertEquals(below, PcieScore.of(new PcieSnapshot(gen, width, maxGen, maxWidth, null, null)).belowMax());
    }
}
