package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingReasonStoreTest {

    @Test
    void reasonsRoundTripAsAJsonObjectWhateverTheyHoldInside() {
        Map<Long, String> reasons = new LinkedHashMap<>();
        reasons.put(12L, "waiting for 16384 MiB on 1 GPU (best: gpu-a GPU0 has 7680 MiB free)");
        reasons.put(3L, "a\ttab, a\nnewline, \"quotes\" and ünïcode");
        String stored = PendingReasonStore.encode(reasons);
        assertEquals('{', stored.charAt(0), stored);
        assertEquals(reasons, PendingReasonStore.decode(stored));
    }

    @Test
    void theTabSeparatedLinesOfAnOlderDatabaseAreStillRead() {
        assertEquals(Map.of(4L, "waiting for job 2", 9L, "held"), PendingReasonStore.decode("4\twaiting for job 2\n9\theld\n"));
        assertEquals(Map.of(), PendingReasonStore.decode(""));
    }
}
