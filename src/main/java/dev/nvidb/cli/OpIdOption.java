package dev.nvidb.cli;

import picocli.CommandLine.Option;

/**
 * {@code --op-id ID}, on every command that changes the queue: {@link OperationRun} answers a
 * retry of the same request with the first answer, and refuses the id for another request.
 */
public final class OpIdOption {

    @Option(names = "--op-id", paramLabel = "ID", description = "Operation id: a retry with the same id and the same"
            + " request gets the first answer (same output and exit code) and changes nothing; another request"
            + " with this id is refused (kept 7 days).")
    String opId;
}
