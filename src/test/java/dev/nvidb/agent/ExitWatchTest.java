package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code await_exit} request line and the reading of its answer. */
class ExitWatchTest {

    @Test
    void theRequestNamesTheDirectoriesAndAWaitOfAtMostTenSeconds() {
        assertEquals("{\"await_exit\":{\"dirs\":[\"~/.nvidb/jobs/4/1\",\"/abs/5/2\"],\"ms\":250}}",
                ExitWatch.request(List.of("~/.nvidb/jobs/4/1", "/abs/5/2"), Duration.ofMillis(250)));
        assertEquals("{\"await_exit\":{\"dirs\":[\"d\"],\"ms\":10000}}", ExitWatch.request(List.of("d"), Duration.ofHours(1)));
        assertEquals("{\"await_exit\":{\"dirs\":[\"d\"],\"ms\":0}}", ExitWatch.request(List.of("d"), Duration.ofMillis(-5)));
        assertThrows(IllegalArgumentException.class, () -> ExitWatch.request(List.of(), Duration.ofSeconds(1)));
    }

    @Test
    void anAnswerNamesWhatEndedAndAnythingElseIsNoAnswer() {
        assertEquals(Optional.of(List.of("a", "b")), exited("{\"schema_version\":1,\"error\":null,\"exited\":[\"a\",\"b\"]}"));
        assertEquals(Optional.of(List.of()), exited("{\"schema_version\":1,\"error\":null,\"exited\":[]}"));
        assertEquals(Optional.empty(), exited("{\"schema_version\":1,\"error\":\"bad request\",\"exited\":[]}"),
                "an error");
        assertEquals(Optional.empty(), exited("{\"schema_version\":1,\"error\":null,\"gpus\":[]}"),
                "an agent that does not know the request answers a probe");
        assertEquals(Optional.empty(), exited("{\"exited\":[1]}"));
        assertEquals(Optional.empty(), exited("{\"exited\":\"a\"}"));
        assertEquals(Optional.empty(), exited("not json"));
        assertEquals(Optional.empty(), exited(""));
    }

    private static Optional<List<String>> exited(String reply) {
        return ExitWatch.exited(reply.getBytes(StandardCharsets.UTF_8));
    }
}
