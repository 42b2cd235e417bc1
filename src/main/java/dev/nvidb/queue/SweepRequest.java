package dev.nvidb.queue;

/**
 * The sweep part of a submit, as typed: checked by {@link Submission}.
 *
 * @param group the group ({@code --group}, else {@code NVIDB_GROUP}), or null; an array without one
 *              is its own group, named after the job
 * @param key   {@code --key}: return the pending, running or completed job holding it instead of
 *              submitting again; for an array each cell's key is {@code KEY[i]}; or null
 * @param array {@code --array} as typed ({@code 0-99%8}, {@code 1,3,5}, {@code 0-20:5}), or null
 * @param opId  {@code --op-id}: the jobs this submit stores are recorded under it in the insert's
 *              transaction, so a retry of the same operation returns them; or null
 */
public record SweepRequest(String group, String key, String array, String opId) {

    /** A plain submit. */
    public static final SweepRequest NONE = new SweepRequest(null, null, null, null);
}
