package dev.nvidb.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.json.Mappers;
import java.util.List;
import java.util.Map;

/**
 * The store's JSON columns (env, tags, GPU lists, event details) through a store-private
 * Jackson mapper. Strict: trailing text, bad escapes and duplicate keys are refused, whole
 * numbers read as {@link Long} and objects keep their key order. A refusal is an
 * {@link IllegalArgumentException} naming queue.db. Text written by the hand-written codec this
 * replaced reads back the same ({@code JsonTextTest}).
 */
final class JsonText {

    private static final ObjectMapper MAPPER = Mappers.STORED;

    private JsonText() {
    }

    /** Writes strings, numbers, booleans, null, lists and string-keyed maps (insertion order kept). */
    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Reads one JSON value: String, Long, Double, Boolean, null, List or Map (in document order). */
    static Object read(String json) {
        return read(json, new TypeReference<Object>() { });
    }

    static Map<String, String> readStringMap(String json) {
        return read(json, new TypeReference<java.util.LinkedHashMap<String, String>>() { });
    }

    static List<String> readStrings(String json) {
        return read(json, new TypeReference<List<String>>() { });
    }

    static List<Integer> readInts(String json) {
        return read(json, new TypeReference<List<Integer>>() { });
    }

    static List<Long> readLongs(String json) {
        return read(json, new TypeReference<List<Long>>() { });
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad JSON in queue.db: " + e.getOriginalMessage(), e);
        }
    }
}
