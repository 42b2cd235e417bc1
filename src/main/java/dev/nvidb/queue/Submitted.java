package dev.nvidb.queue;

import java.util.List;

/**
 * What a submit did: the job of each cell (one for a plain submit), new or found, and the group.
 *
 * @param cells the jobs, in the order submitted
 * @param group the group they belong to, or null
 */
public record Submitted(List<Cell> cells, String group) {

    /**
     * One job of the submit.
     *
     * @param id            the job
     * @param arrayIndex    its array index, or null
     * @param existing      true when the job was not stored now: a pending, running or completed job
     *                      already held the key, or an earlier run of the same {@code --op-id} stored it
     * @param existingState the state of an existing job when it was found (null for a new one)
     * @param key           the job's key, or null
     */
    public record Cell(long id, Integer arrayIndex, boolean existing, String existingState, String key) {
    }

    public Submitted {
        cells = List.copyOf(cells);
    }

    /** The ids, in order. */
    public List<Long> ids() {
        return cells.stream().map(Cell::id).toList();
    }

    /** How many jobs this submit stored now. */
    public long created() {
        return cells.stream().filter(cell -> !cell.existing()).count();
    }
}
