package dev.nvidb.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.model.GpuSource;
import dev.nvidb.model.NodeInfo;
import dev.nvidb.model.NodeSnapshot;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The doctor's judgements, without nodes or files. */
class FindingsTest {

    private static NodeFindings.Probe probe(double nodeClock, long sent, long answered) {
        NodeInfo info = new NodeInfo("n", null, nodeClock, null, null, "/j", 5000L, "3.11.2", "0", false);
        return new NodeFindings.Probe(new NodeSnapshot(GpuSource.NVML, null, info, "550", null, List.of()), true,
                sent, answered);
    }

    @ParameterizedTest
    @CsvSource({
            // node clock (s), sent (ms), answered (ms), status
            "1000.0, 999900, 1000100, ok",       // the midpoint exactly
            "1003.0, 999900, 1000100, problem",  // 3 s ahead, known to ±0.1 s
            "997.0, 999900, 1000100, problem",   // 3 s behind
            "1002.5, 998000, 1002000, ok"})      // 2.5 s, but the round trip allows ±2 s
    void clockSkewIsMeasuredAtTheMidpointAndJudgedBeyondItsUncertainty(double clock, long sent, long answered,
                                                                       String status) {
        NodeFindings.Probe probe = probe(clock, sent, answered);
        assertEquals(status, NodeFindings.clock(NodeFindings.skew(probe), NodeFindings.uncertainty(probe)).status().label());
    }

    @Test
    void hiddenProcessesAreWorthKnowingButNeedNoAttention() {
        NodeInfo hidden = new NodeInfo("n", null, null, null, null, null, null, "3", "invisible", true);
        Check check = NodeFindings.proc(hidden);
        assertEquals(Check.Status.NOTE, check.status());
        assertTrue(check.detail().contains("hidepid=invisible"), check.detail());
    }

    @Test
    void aDatabaseOnANetworkFilesystemNeedsAttention() {
        DatabaseDiagnosis db = new DatabaseDiagnosis(Path.of("/home/a/.nvidb/queue.db"), true, null, null, true, "nfs4",
                Path.of("/home"), true, 4, 4, null, null);
        Check check = DatabaseFindings.filesystem(db);
        assertEquals(Check.Status.PROBLEM, check.status());
        assertTrue(check.detail().contains("WAL is unsafe"), check.detail());
    }

    @Test
    void aMissingDatabaseIsNoProblemAndANewerSchemaIs() {
        DatabaseDiagnosis none = new DatabaseDiagnosis(Path.of("/h/queue.db"), false, null, null, null, "ext4",
                Path.of("/"), false, null, 4, null, null);
        assertTrue(DatabaseFindings.judge(none, null, null, Instant.EPOCH).stream().noneMatch(Check::problem));
        DatabaseDiagnosis newer = new DatabaseDiagnosis(Path.of("/h/queue.db"), true, null, null, true, "ext4",
                Path.of("/"), false, 9, 4, null, null);
        assertEquals(Check.Status.PROBLEM, DatabaseFindings.schema(newer).status());
    }
}
