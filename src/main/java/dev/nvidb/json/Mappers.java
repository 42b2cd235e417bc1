package dev.nvidb.json;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The project's Jackson mappers, made in one place: every JSON nvidb reads or writes goes through
 * one of these four. Each is configured once and shared (a configured mapper is thread-safe).
 */
public final class Mappers {

    /** Plain JSON, Jackson's defaults: the agent's protocol (requests and replies), alert documents. */
    public static final ObjectMapper PLAIN = JsonMapper.builder().build();

    /**
     * The documents of {@code --json}, MCP and the web API: snake_case field names from records,
     * indented; a record without fields is {@code {}}.
     */
    public static final ObjectMapper DOCUMENT = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    /** As {@link #DOCUMENT}, on one line: streams of documents (NDJSON, server-sent events). */
    public static final ObjectMapper LINE = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    /**
     * What the queue stores as JSON text in its database: whole numbers as longs, nothing after
     * the value, and a duplicated key refused rather than one of its values kept silently.
     */
    public static final ObjectMapper STORED = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private Mappers() {
    }
}
