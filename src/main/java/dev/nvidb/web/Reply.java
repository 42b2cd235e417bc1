package dev.nvidb.web;

import dev.nvidb.output.Json;
import java.nio.charset.StandardCharsets;

/**
 * One answer of the dashboard: a status, a content type and the body. API answers are JSON
 * documents written by the one writer ({@code output.Json}); a failure is {@code {"error": "…"}}.
 */
record Reply(int status, String contentType, byte[] body) {

    static final String JSON = "application/json; charset=utf-8";

    /** The body of every failed API request. */
    record JsonApiError(String error) {
    }

    static Reply json(Object document) {
        return new Reply(200, JSON, Json.write(document).getBytes(StandardCharsets.UTF_8));
    }

    static Reply error(int status, String message) {
        return new Reply(status, JSON, Json.write(new JsonApiError(message)).getBytes(StandardCharsets.UTF_8));
    }

    static Reply text(int status, String contentType, String text) {
        return new Reply(status, contentType, text.getBytes(StandardCharsets.UTF_8));
    }
}
