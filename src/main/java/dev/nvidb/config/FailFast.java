package dev.nvidb.config;

/**
 * Fail-fast for groups ({@code queue: group_fail_fast}, {@code group_fail_window_seconds}): after
 * {@code count} jobs of one group in a row fail within {@code windowSeconds} of starting, the
 * group is held (its pending jobs wait, an alert is raised) until {@code queue release-group}.
 *
 * @param count         quick failures in a row that hold a group; 0 turns fail-fast off
 * @param windowSeconds a failure this soon after the start counts as quick; 0 turns fail-fast off
 */
public record FailFast(int count, int windowSeconds) {

    /** 3 failures in a row, each within 60 s of its start. */
    public static FailFast defaults() {
        return new FailFast(3, 60);
    }

    public boolean enabled() {
        return count > 0 && windowSeconds > 0;
    }
}
