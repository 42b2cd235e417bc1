package dev.nvidb.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.queue.ClockSkew;
import dev.nvidb.queue.QueueStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The clock-skew warning of {@code queue status}, in text and JSON. */
class ClockSkewTextTest {

    private static final ClockSkew SKEW = new ClockSkew("the last tick", Instant.parse("2026-01-01T02:00:00Z"),
            Duration.ofHours(2));

    @Test
    void textSaysWhatWasRecordedHowFarAhead() {
        assertEquals("! clock: the last tick was recorded 2h ahead of this machine's clock (a clock was ahead, or this"
                + " one stepped back); ticks go on, times from the future count as expired\n",
                QueueText.clockSkew(SKEW, 400, TextStyle.PLAIN));
        assertEquals("", QueueText.clockSkew(null, 400, TextStyle.PLAIN));
    }

    @Test
    void jsonCarriesWhatWhenAndHowFarAhead() throws Exception {
        QueueStatus status = new QueueStatus(List.of(), List.of(), Map.of(), List.of(), 0, null, SKEW);
        JsonNode skew = new ObjectMapper().readTree(Json.write(JsonQueue.status(status, List.of()))).get("clock_skew");
        assertEquals("the last tick", skew.get("what").asText());
        assertEquals(7200, skew.get("ahead_seconds").asLong());
        assertEquals(Instant.parse("2026-01-01T02:00:00Z").getEpochSecond(), skew.get("recorded_at").asLong());
    }
}
