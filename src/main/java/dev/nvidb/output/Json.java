package dev.nvidb.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.json.Mappers;

/**
 * The one JSON writer of the command edge. Field names are snake_case, nulls are written
 * (null is not zero), and every document carries {@code schema_version} at its top level.
 */
public final class Json {

    /** Version of every document nvidb prints; bumped only for incompatible changes. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = Mappers.DOCUMENT;

    private static final ObjectMapper COMPACT = Mappers.PLAIN;

    private static final ObjectMapper LINE = Mappers.LINE;

    private Json() {
    }

    /**
     * Parses stored JSON text (a job's result) so documents embed it as JSON; text that does
     * not parse is returned as the string it is.
     */
    public static Object parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return text;
        }
    }

    /**
     * A stored JSON object (an event's detail) as a map in document order; empty for null or for
     * text that is not an object.
     */
    @SuppressWarnings("unchecked")
    public static java.util.Map<String, Object> readObject(String text) {
        if (text == null) {
            return java.util.Map.of();
        }
        try {
            Object value = MAPPER.readValue(text, Object.class);
            return value instanceof java.util.Map<?, ?> map ? (java.util.Map<String, Object>) map : java.util.Map.of();
        } catch (JsonProcessingException e) {
            return java.util.Map.of();
        }
    }

    /** {@code value} as one line of JSON (for stored documents and raw embedding). */
    public static String compact(Object value) {
        try {
            return COMPACT.writeValueAsString(value instanceof String text ? MAPPER.readTree(text) : value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A document as {@link #write} prints it, on one line: for streams of documents (JSON lines). */
    public static String line(Object document) {
        try {
            return LINE.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render " + document.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** True when {@code text} is one JSON object (what {@code job result --set} accepts). */
    public static boolean isObject(String text) {
        try {
            return MAPPER.readTree(text).isObject();
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * Builds the writer and the serializers of the common documents ahead of time, meant for
     * a background thread at start-up: on a cold JVM that is tens of milliseconds which then
     * overlap with opening the database and reading it.
     *
     * <p>{@code waitReport}: the report of a wait too (built while the jobs run: its first write on a
     * cold JVM took 80 ms at the end of {@code submit --wait}). Only what the command may print:
     * on two cores this thread competes with the command's own.
     */
    public static void prepare(boolean waitReport) {
        try {
            MAPPER.writerFor(JsonJobs.Many.class);
            MAPPER.writerFor(JsonJobs.One.class);
            MAPPER.writerFor(JsonQueue.Status.class);
            if (waitReport) {
                MAPPER.writerFor(JsonCommands.Waited.class);
            }
            MAPPER.writeValueAsString(new JsonError(SCHEMA_VERSION, false, new JsonError.Detail("t", "m", null)));
        } catch (JsonProcessingException | RuntimeException e) {
            // Only an optimisation: the real write reports any problem.
        }
    }

    /**
     * {@code job ls --json} written as it is read: the document {@link #write} makes of
     * {@link JsonJobs#many}, byte for byte, without holding the jobs. Call {@link JobsStream#job}
     * for each job (exactly {@code count} of them), then {@link JobsStream#close}; nothing is
     * closed but the document.
     */
    public static JobsStream jobsStream(java.io.Writer out, int count) {
        try {
            com.fasterxml.jackson.core.JsonGenerator generator = MAPPER.writer().createGenerator(out);
            generator.disable(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            generator.writeStartObject();
            generator.writeNumberField("schema_version", SCHEMA_VERSION);
            generator.writeBooleanField("ok", true);
            generator.writeNumberField("count", count);
            generator.writeArrayFieldStart("jobs");
            return new JobsStream(generator);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A {@code job ls} document being written; see {@link #jobsStream}. */
    public static final class JobsStream implements AutoCloseable {
        private final com.fasterxml.jackson.core.JsonGenerator generator;

        private JobsStream(com.fasterxml.jackson.core.JsonGenerator generator) {
            this.generator = generator;
        }

        public void job(JsonJob job) {
            try {
                MAPPER.writeValue(generator, job);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Ends the document (no trailing newline) and flushes it. */
        @Override
        public void close() {
            try {
                generator.writeEndArray();
                generator.writeEndObject();
                generator.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** Renders a view record as an indented JSON document (no trailing newline). */
    public static String write(Object view) {
        try {
            return MAPPER.writeValueAsString(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render " + view.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
