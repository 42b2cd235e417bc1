package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Slurm's lines as its commands print them, parsed and mapped onto nvidb's lifecycle without a cluster. */
class SlurmStatesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "12|PENDING|Resources|nvidb-abc; 12; PENDING; Resources; ACTIVE",
        "12|PENDING|Priority|nvidb-abc; 12; PENDING; Priority; ACTIVE",
        "7|RUNNING|None|nvidb-abc; 7; RUNNING; ; ACTIVE",
        "7|COMPLETING|None|nvidb-abc; 7; COMPLETING; ; ACTIVE",
        "8|COMPLETED|None|nvidb-abc; 8; COMPLETED; ; EXITED",
        "9|FAILED|NonZeroExitCode|nvidb-abc; 9; FAILED; NonZeroExitCode; EXITED",
        "10|TIMEOUT|TimeLimit|nvidb-abc; 10; TIMEOUT; TimeLimit; TIMEOUT",
        "11|OUT_OF_MEMORY|OutOfMemory|nvidb-abc; 11; OUT_OF_MEMORY; OutOfMemory; OUT_OF_MEMORY",
        "13|NODE_FAIL|NodeDown|nvidb-abc; 13; NODE_FAIL; NodeDown; GONE",
        "14|PREEMPTED|None|nvidb-abc; 14; PREEMPTED; ; GONE",
        "15|CANCELLED|None|nvidb-abc; 15; CANCELLED; ; GONE",
        "16|SOMETHING_NEW|None|nvidb-abc; 16; SOMETHING_NEW; ; UNKNOWN"})
    void squeueLinesAndTheirMeaning(String line, long id, String state, String reason, SlurmStates.Kind kind) {
        SlurmJob job = SlurmJob.fromSqueue(line);
        assertEquals(id, job.jobId());
        assertEquals(state, job.state());
        assertEquals(reason, job.reason());
        assertNull(job.exitCode(), "squeue never says an exit code");
        assertEquals(kind, SlurmStates.of(job, false));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "21|COMPLETED|0:0|None; COMPLETED; 0",
        "22|FAILED|3:0|NonZeroExitCode; FAILED; 3",
        "23|CANCELLED by 1000|0:15|None; CANCELLED; 143",
        "24|TIMEOUT|0:0|TimeLimit; TIMEOUT; 0",
        "25|OUT_OF_MEMORY|0:9|OutOfMemory; OUT_OF_MEMORY; 137",
        "26|NODE_FAIL|0:0|None; NODE_FAIL; 0"})
    void sacctLinesCarryTheExitStatusAsAShellWouldSayIt(String line, String state, int exitCode) {
        SlurmJob job = SlurmJob.fromSacct(line);
        assertEquals(state, job.state());
        assertEquals(exitCode, job.exitCode());
    }

    @Test
    void theWrappersExitStatusWinsAndCompletedWithoutOneIsZero() {
        SlurmJob failed = SlurmJob.fromSacct("22|FAILED|3:0|NonZeroExitCode");
        assertEquals(4, SlurmStates.exitCode(failed, 4));
        assertEquals(3, SlurmStates.exitCode(failed, null));
        assertEquals(0, SlurmStates.exitCode(SlurmJob.fromSqueue("8|COMPLETED|None|x"), null));
        assertNull(SlurmStates.exitCode(SlurmJob.fromSqueue("9|FAILED|NonZeroExitCode|x"), null));
    }

    @Test
    void aJobSlurmForgotIsEndedByItsExitFileOrGone() {
        assertEquals(SlurmStates.Kind.EXITED, SlurmStates.of(null, true));
        assertEquals(SlurmStates.Kind.GONE, SlurmStates.of(null, false));
    }

    @Test
    void aLineThatIsNotAJobIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SlurmJob.fromSqueue("squeue: error: Invalid user"));
        assertThrows(IllegalArgumentException.class, () -> SlurmJob.fromSqueue("x|RUNNING|None|y"));
        assertThrows(IllegalArgumentException.class, () -> SlurmJob.fromSacct("12|COMPLETED"));
    }

    @Test
    void describesTheStateWithItsReason() {
        assertEquals("PENDING (Resources)", SlurmJob.fromSqueue("12|PENDING|Resources|x").describe());
        assertEquals("RUNNING", SlurmJob.fromSqueue("12|RUNNING|None|x").describe());
    }

    @Test
    void summarisesThePartitionFromSinfosLines() {
        SlurmPartition partition = new SlurmPartition(List.of("gpu|up|1/2/0/3|8/88/0/96|gpu:4",
                "gpu|up|0/0/1/1|0/0/32/32|gpu:4"), null);
        assertEquals("partition gpu up: nodes 1 allocated, 2 idle, 1 other of 4; CPUs 8 of 128 allocated; gpu:4",
                partition.describe());
        assertEquals("sinfo lists no such partition", new SlurmPartition(List.of(), null).describe());
        assertEquals("sinfo: Unable to contact slurm controller",
                new SlurmPartition(List.of(), "Unable to contact slurm controller").describe());
    }
}
