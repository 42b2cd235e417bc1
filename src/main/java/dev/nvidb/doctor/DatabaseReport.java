package dev.nvidb.doctor;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.util.List;

/**
 * The queue database as {@code nvidb doctor} found it, with the keeper that moves the queue.
 *
 * @param diagnosis what was read of the database (read-only)
 * @param keeper    the installed keeper's state, or null when none is installed
 * @param checks    the checks: database, wal, filesystem, schema, lease, keeper
 */
public record DatabaseReport(DatabaseDiagnosis diagnosis, KeeperState keeper, List<Check> checks) {

    public DatabaseReport {
        checks = List.copyOf(checks);
    }

    public boolean needsAttention() {
        return checks.stream().anyMatch(Check::problem);
    }
}
