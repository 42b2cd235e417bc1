package dev.nvidb.web;

import java.math.BigDecimal;
import java.time.Instant;

/** Times in the API's documents: seconds since the epoch with milliseconds, as in every nvidb document. */
final class JsonTimes {

    private JsonTimes() {
    }

    static BigDecimal seconds(Instant instant) {
        return instant == null ? null : BigDecimal.valueOf(instant.toEpochMilli(), 3);
    }
}
