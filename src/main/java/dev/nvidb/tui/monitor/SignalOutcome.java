package dev.nvidb.tui.monitor;

/**
 * What became of a {@link SignalRequest}: sent, or why not (permission denied, process gone,
 * node unreachable), in one line for the process pane.
 *
 * @param request the request
 * @param sent    true when the node delivered the signal
 * @param message what to show
 */
public record SignalOutcome(SignalRequest request, boolean sent, String message) {
}
