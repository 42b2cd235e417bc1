package dev.nvidb.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTextTest {

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
    @ValueSource(strings = {"{", "[1,", "{\"a\" 1}", "\"open", "[1] x", "tru", "{\"a\":\"\\q\"}"})
    void malformedTextIsRefused(String json) {
        assertThrows(IllegalArgumentException.class, () -> JsonText.read(json));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "[0, 1, 7]", " [ 3 ] "})
    void integerListsRoundTrip(String json) {
        List<Integer> ints = JsonText.readInts(json);
        assertEquals(ints, JsonText.readInts(JsonText.write(ints)));
    }
}
