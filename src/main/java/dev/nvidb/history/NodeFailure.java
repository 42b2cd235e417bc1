package dev.nvidb.history;

import java.time.Instant;

/** A probe a node did not answer (or answered without its GPUs), and why. */
public record NodeFailure(Instant at, String node, String failure) {
}
