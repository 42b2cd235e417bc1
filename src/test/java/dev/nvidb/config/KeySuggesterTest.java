package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Typo suggestions: close enough to help, never a wild guess. */
class KeySuggesterTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
        "prot, port",
        "hostnme, hostname",
        "host, hostname",
        "user, username",
        "IdentityFile, identityfile",
        "proxy_jump, proxyjump",
        "gpu, gpus",
        "colour, none",
        "x, none",
        "zzzzzzzz, none",
    })
    void suggestsAServerKey(String typed, String expected) {
        assertEquals(Optional.ofNullable(expected), KeySuggester.closest(typed, ConfigSchema.SERVER_KEYS));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
        "sever, servers",
        "server, servers",
        "base, basic",
        "queu, queue",
        "viewer, view",
        "alerts, none",
    })
    void suggestsASection(String typed, String expected) {
        assertEquals(Optional.ofNullable(expected), KeySuggester.closest(typed, ConfigSchema.CONFIG_FILE_KEYS));
    }

    @ParameterizedTest(name = "{0}/{1} = {2}")
    @CsvSource({"abc, abc, 0", "ab, ba, 1", "kitten, sitting, 3", "'', abc, 3"})
    void distanceCountsASwapAsOneEdit(String a, String b, int expected) {
        assertEquals(expected, KeySuggester.distance(a, b));
    }
}
