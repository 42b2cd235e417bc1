package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.keeper.KeeperState;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The keeper's document and its line in text (docs/json.md, "queue keeper … --json"). */
class KeeperOutputTest {

    private static final Instant SINCE = Instant.parse("2026-12-01T21:00:00Z");

    private static KeeperState restarted() {
        return new KeeperState(KeeperState.Kind.SHELL, KeeperState.Condition.UP, 812L, 901L, SINCE,
                SINCE.plusSeconds(3600), 2, SINCE.plusSeconds(3600), 137, null, "15",
                Path.of("/home/u/.nvidb/queue-keeper.sh"), null);
    }

    @Test
    void keeperStatusMatchesGoldenFile() throws Exception {
        Golden.assertMatches("keeper-status.json", Json.write(JsonKeeper.Status.of(restarted())));
    }

    @Test
    void noKeeperIsNullAndNotOk() {
        JsonKeeper.Status none = JsonKeeper.Status.of(null);
        assertNull(none.keeper());
        assertEquals(false, none.ok());
        assertEquals(false, none.installed());
    }

    @Test
    void theLineSaysUpOrDownWithPidsTimesAndRestarts() {
        assertEquals("keeper up: shell supervisor 812 since 2026-12-01 21:00:00, daemon 901 since 2026-12-01 22:00:00,"
                + " 2 restarts (last 2026-12-01 22:00:00, after exit status 137)",
                KeeperText.line(restarted(), ZoneOffset.UTC, TextStyle.PLAIN));
        KeeperState down = new KeeperState(KeeperState.Kind.SHELL, KeeperState.Condition.DOWN, null, null, null, null,
                null, null, null, null, null, Path.of("/x"), "its supervisor (pid 812) is gone");
        assertEquals("keeper DOWN: shell, its supervisor (pid 812) is gone; start it: nvidb queue keeper start",
                KeeperText.line(down, ZoneOffset.UTC, TextStyle.PLAIN));
        KeeperState hostile = new KeeperState(KeeperState.Kind.SHELL, KeeperState.Condition.DOWN, null, null, null, null,
                null, null, null, null, null, Path.of("/x"), "gone \u001b[31m");
        assertTrue(!KeeperText.line(hostile, ZoneOffset.UTC, TextStyle.PLAIN).contains("\u001b"));
    }
}
