package dev.nvidb.doctor;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The judgements on the queue database and the keeper (pure): it exists and can be read, WAL is
 * on, it is not on a network filesystem, its schema is this build's, who holds the tick lease,
 * and whether an installed keeper is up.
 */
final class DatabaseFindings {

    private DatabaseFindings() {
    }

    static List<Check> judge(DatabaseDiagnosis db, KeeperState keeper, String forwardedTo, Instant now) {
        List<Check> checks = new ArrayList<>();
        if (forwardedTo != null) {
            checks.add(Check.note("forwarding", "queue commands are forwarded to " + forwardedTo
                    + "; the database below is this machine's, which they do not use",
                    "run 'nvidb doctor' on " + forwardedTo + " for the queue's own database"));
        }
        checks.add(filesystem(db));
        if (!db.exists()) {
            checks.add(Check.note("database", "no queue database yet at " + db.path(),
                    "the first queue command creates it"));
        } else if (db.error() != null) {
            checks.add(Check.problem("database", db.error(), db.errorHint()));
        } else {
            checks.add(Check.ok("database", db.path().toString()));
            checks.add(wal(db));
            checks.add(schema(db));
            if (db.lease() != null) {
                checks.add(lease(db, now));
            }
        }
        checks.add(keeper(keeper));
        return checks;
    }

    static Check filesystem(DatabaseDiagnosis db) {
        if (db.filesystem() == null) {
            return Check.note("filesystem", "the filesystem of " + db.path().getParent() + " is unknown"
                    + " (no /proc/self/mountinfo)", null);
        }
        String where = db.filesystem() + " (mounted at " + db.mountPoint() + ")";
        if (db.network()) {
            return Check.problem("filesystem", "the database's directory is on " + where + ", a network filesystem:"
                    + " SQLite's WAL is unsafe there (its shared memory and locks do not reach other machines),"
                    + " and the database can be corrupted", "keep queue.db on a local disk (set NVIDB_HOME or pass"
                    + " --db-path); other machines reach the queue with remote: forwarding in queue.yml");
        }
        return Check.ok("filesystem", "local filesystem " + where);
    }

    static Check wal(DatabaseDiagnosis db) {
        if (Boolean.TRUE.equals(db.wal())) {
            return Check.ok("wal", "journal mode WAL");
        }
        return Check.problem("wal", "the database is not in WAL mode, so readers and the tick block each other",
                "any queue command (nvidb queue status) switches it to WAL");
    }

    static Check schema(DatabaseDiagnosis db) {
        int version = db.schemaVersion() == null ? 0 : db.schemaVersion();
        int build = db.buildSchemaVersion();
        if (version == build) {
            return Check.ok("schema", "schema version " + version);
        }
        if (version > build) {
            return Check.problem("schema", "schema version " + version + " is newer than this build's " + build
                    + ": this nvidb refuses the database", "upgrade nvidb on this machine");
        }
        return Check.note("schema", "schema version " + version + "; this build writes " + build,
                "the next queue command migrates it");
    }

    static Check lease(DatabaseDiagnosis db, Instant now) {
        DatabaseDiagnosis.LeaseView lease = db.lease();
        String lastTick = db.lastTickAt() == null ? "no tick yet" : "last tick " + ago(db.lastTickAt(), now);
        if (lease.held()) {
            return Check.ok("lease", "held by " + lease.holder() + (lease.acquiredAt() == null ? ""
                    : " since " + ago(lease.acquiredAt(), now)) + "; " + lastTick);
        }
        return Check.ok("lease", "free; " + lastTick);
    }

    static Check keeper(KeeperState keeper) {
        if (keeper == null) {
            return Check.note("keeper", "no keeper is installed: the queue moves only while commands run",
                    "nvidb queue keeper install --start keeps it moving");
        }
        String what = "the " + keeper.kind().label() + " keeper is " + keeper.condition().label()
                + (keeper.detail() == null ? "" : ": " + keeper.detail());
        if (keeper.up()) {
            return Check.ok("keeper", what);
        }
        return Check.problem("keeper", what, keeper.condition() == KeeperState.Condition.FAILING
                ? "see why with 'nvidb queue keeper logs'" : "start it with 'nvidb queue keeper start'");
    }

    /** "12 s ago", "5 min ago", "3 h ago", "in 4 s" (a time from the future). */
    static String ago(Instant then, Instant now) {
        Duration age = Duration.between(then, now);
        boolean future = age.isNegative();
        long seconds = Math.abs(age.toSeconds());
        String amount = seconds < 120 ? seconds + " s" : seconds < 7200 ? seconds / 60 + " min" : seconds / 3600 + " h";
        return future ? "in " + amount + " (a clock was ahead)" : amount + " ago";
    }
}
