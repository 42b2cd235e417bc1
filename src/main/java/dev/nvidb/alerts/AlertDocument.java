package dev.nvidb.alerts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.json.Mappers;
import dev.nvidb.store.Alert;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON document every channel delivers for an alert: one line, the fields of
 * {@code queue alerts --json} plus {@code schema_version} (docs/json.md, "Delivered alerts").
 * {@code id} is the alert's id: a receiver drops a document whose id it has seen (the one
 * duplicate a daemon killed between delivering and recording can cause). The delivery's own
 * mapper, like the store's: what is delivered does not change with what the CLI prints.
 */
public final class AlertDocument {

    /** The version of this document's fields. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = Mappers.PLAIN;

    private AlertDocument() {
    }

    /** {@code alert} as one line of JSON (no newline). */
    public static String json(Alert alert) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("schema_version", SCHEMA_VERSION);
        document.put("id", alert.id());
        document.put("at", BigDecimal.valueOf(alert.at().toEpochMilli(), 3));
        document.put("kind", alert.kind());
        document.put("severity", alert.severity());
        document.put("job_id", alert.jobId());
        document.put("node", alert.node());
        document.put("message", alert.message());
        document.put("detail", alert.detail());
        try {
            return MAPPER.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render alert " + alert.id() + " as JSON", e);
        }
    }
}
