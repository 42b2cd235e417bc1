package dev.nvidb.mcp;

/**
 * One tool the server offers: its name, a title, a description an agent can act on, its
 * arguments, how it behaves (the MCP annotations) and what it does.
 *
 * @param name        the tool's name (snake_case)
 * @param title       a short human title
 * @param description what it does, when to use it, what it answers
 * @param input       its arguments
 * @param behaviour   read-only, destructive, idempotent
 * @param call        runs it on checked arguments and answers a document
 */
record QueueTool(String name, String title, String description, InputSchema input, Behaviour behaviour, Call call) {

    /** What a call does with its checked arguments: the answer is a document for {@code output.Json}. */
    @FunctionalInterface
    interface Call {
        Answer run(Arguments arguments);
    }

    /** The MCP tool annotations: what an agent may assume about a call. */
    enum Behaviour {
        /** Reads the queue (it may tick it, as a CLI read does); changes nothing the agent asked for. */
        READ(true, false, true),
        /** Adds to the queue; a repeat adds again unless it carries the same {@code op_id} or {@code key}. */
        ADD(false, false, false),
        /** Changes jobs irreversibly (kills running ones); repeating it changes nothing more. */
        DESTRUCTIVE_IDEMPOTENT(false, true, true),
        /** Changes jobs irreversibly (kills running ones); repeating it acts again. */
        DESTRUCTIVE(false, true, false),
        /** Changes bookkeeping only (acknowledges alerts); repeating it changes nothing more. */
        UPDATE_IDEMPOTENT(false, false, true);

        final boolean readOnly;
        final boolean destructive;
        final boolean idempotent;

        Behaviour(boolean readOnly, boolean destructive, boolean idempotent) {
            this.readOnly = readOnly;
            this.destructive = destructive;
            this.idempotent = idempotent;
        }
    }

    /**
     * A tool's answer: the JSON document as one line of text (what {@code --json} prints, less the
     * indentation) and whether it reports a failure (the error envelope).
     *
     * @param json     the document
     * @param error    true for the error envelope
     * @param replayed true when it is the recorded answer of an earlier call with the same {@code op_id}
     */
    record Answer(String json, boolean error, boolean replayed) {

        static Answer of(Object document) {
            return new Answer(dev.nvidb.output.Json.line(document), false, false);
        }
    }
}
