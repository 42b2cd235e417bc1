package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTextTest {

    /** Column text exactly as the hand-written codec that Jackson replaced wrote it (rows in existing queue.db files). */
    private static final String OLD_ENV = "{\"PATH\":\"/usr/bin:/bin\",\"NASTY\":\"it's \\\"q\\\" \\\\ $(x) `y`\\nline2\\ttab"
            + "\\r\\u0000\\u001f\\u0008 ünï 🚀\",\"EMPTY\":\"\"}";
    private static final String OLD_TAGS = "[\"sweep\",\"lr=1e-4\",\"日本\"]";
    private static final String OLD_GPU_IDS = "[0,3,7]";
    private static final String OLD_DETAIL = "{\"node\":\"gpu-a\",\"gpus\":[0,1],\"attempt\":2,\"exit_code\":-1,"
            + "\"retry\":true,\"reason\":null,\"big\":9007199254740993}";

    @Test
    void textWrittenByTheOldCodecReadsBackIdentically() {
        Map<String, String> env = JsonText.readStringMap(OLD_ENV);
        assertEquals(List.of("PATH", "NASTY", "EMPTY"), List.copyOf(env.keySet()));
        assertEquals("it's \"q\" \\ $(x) `y`\nline2\ttab\r\u0000\u001f\b ünï 🚀", env.get("NASTY"));
        assertEquals("", env.get("EMPTY"));
        assertEquals(List.of("sweep", "lr=1e-4", "日本"), JsonText.readStrings(OLD_TAGS));
        assertEquals(List.of(0, 3, 7), JsonText.readInts(OLD_GPU_IDS));
        assertEquals(List.of(), JsonText.readInts("[]"));
        assertEquals(Map.of(), JsonText.readStringMap("{}"));

        @SuppressWarnings("unchecked")
        Map<String, Object> detail = (Map<String, Object>) JsonText.read(OLD_DETAIL);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("node", "gpu-a");
        expected.put("gpus", List.of(0L, 1L));
        expected.put("attempt", 2L);
        expected.put("exit_code", -1L);
        expected.put("retry", true);
        expected.put("reason", null);
        expected.put("big", 9007199254740993L);
        assertEquals(expected, detail, "whole numbers are Long, as the old codec read them");
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(detail.keySet()));
    }

    @Test
    void textWithoutControlCharactersIsWrittenAsTheOldCodecWroteIt() {
        assertEquals(OLD_TAGS, JsonText.write(List.of("sweep", "lr=1e-4", "日本")));
        assertEquals(OLD_GPU_IDS, JsonText.write(List.of(0, 3, 7)));
        assertEquals(OLD_DETAIL, JsonText.write(JsonText.read(OLD_DETAIL)));
        assertEquals("[]", JsonText.write(List.of()));
        assertEquals("{}", JsonText.write(Map.of()));
        assertEquals(JsonText.readStringMap(OLD_ENV), JsonText.readStringMap(JsonText.write(JsonText.readStringMap(OLD_ENV))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "quote \" backslash \\ slash /", "new\nline\ttab\r", "\u0000\u001f ctrl",
            "日本語 ü 🎉", "$(rm -rf /); `x` 'y'"})
    void stringsSurviveARoundTrip(String value) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("b-" + value, value);
        map.put("a", value);
        assertEquals(map, JsonText.readStringMap(JsonText.write(map)));
        assertEquals(List.of("b-" + value, "a"), List.copyOf(JsonText.readStringMap(JsonText.write(map)).keySet()));
        assertEquals(List.of(value, value), JsonText.readStrings(JsonText.write(List.of(value, value))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "[1,", "{\"a\" 1}", "\"open", "[1] x", "tru", "{\"a\":\"\\q\"}", "{\"a\":1,\"a\":2}"})
    void malformedTextIsRefused(String json) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> JsonText.read(json));
        assertTrue(refused.getMessage().startsWith("bad JSON in queue.db: "), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "[0, 1, 7]", " [ 3 ] "})
    void integerListsRoundTrip(String json) {
        List<Integer> ints = JsonText.readInts(json);
        assertEquals(ints, JsonText.readInts(JsonText.write(ints)));
        assertEquals(Arrays.stream(json.replaceAll("[\\[\\] ]", "").split(",")).filter(s -> !s.isEmpty())
                .map(Integer::valueOf).toList(), ints);
    }
}
