package dev.nvidb.model;

/**
 * Where a job stands in a sweep: its group, its cell of an array, and its idempotency key. All
 * three are fixed at submit; {@link #NONE} for a job submitted alone.
 *
 * @param group      the group ({@code --group}, {@code NVIDB_GROUP}, or an array's own), or null
 * @param arrayIndex the index of an array cell ({@code {}} in its command, {@code NVIDB_ARRAY_INDEX}), or null
 * @param key        the submit's {@code --key}: while a pending, running or completed job holds it, a
 *                   submit with the same key returns that job instead of a new one; or null
 */
public record Sweep(String group, Integer arrayIndex, String key) {

    /** A job outside any sweep. */
    public static final Sweep NONE = new Sweep(null, null, null);

    public Sweep {
        if (arrayIndex != null && arrayIndex < 0) {
            throw new IllegalArgumentException("array index cannot be negative");
        }
    }

    /** True when the job belongs to no group and has no key. */
    public boolean none() {
        return group == null && arrayIndex == null && key == null;
    }
}
