package dev.nvidb.output;

import dev.nvidb.doctor.Check;
import dev.nvidb.doctor.DatabaseReport;
import dev.nvidb.doctor.NodeReport;
import dev.nvidb.doctor.Report;
import dev.nvidb.queue.DatabaseDiagnosis;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * {@code nvidb doctor --json}: one object per node and one for the database, each with its
 * checks; {@code ok} is false when something needs attention. docs/json.md describes every field.
 *
 * @param ok       nothing needs attention (the exit code is 0)
 * @param problems how many checks found a problem
 * @param nodes    this machine first, then every configured server
 * @param database the queue database
 * @param keeper   the installed keeper, or null when none is
 */
public record JsonDoctor(int schemaVersion, boolean ok, long problems, List<Node> nodes, Database database,
                         JsonKeeper keeper) {

    /** One check: {@code status} is {@code ok}, {@code note} or {@code problem}; {@code hint} says what to do. */
    public record JsonCheck(String check, String status, String detail, String hint) {

        static List<JsonCheck> of(List<Check> checks) {
            return checks.stream().map(check -> new JsonCheck(check.name(), check.status().label(),
                    check.detail(), check.hint())).toList();
        }
    }

    /** A node; facts the doctor could not get to are null. */
    public record Node(String node, String address, boolean local, List<String> roles, boolean ok, boolean reachable,
                       String hostKey, String hostKeyFingerprint, String auth, String python, String gpuSource,
                       String driverVersion, Integer gpus, BigDecimal clockSkewS, BigDecimal clockUncertaintyS,
                       String diskPath, Long diskFreeMb, String procHidepid, Boolean procHidesOthers,
                       List<JsonCheck> checks) {

        static Node of(NodeReport node) {
            return new Node(node.node(), node.address(), node.local(), node.roles(), !node.needsAttention(),
                    node.reachable(), node.hostKey(), node.hostKeyFingerprint(), node.auth(), node.python(),
                    node.gpuSource(), node.driverVersion(), node.gpus(), millis(node.clockSkewSeconds()),
                    millis(node.clockUncertaintySeconds()), node.diskPath(), node.diskFreeMb(), node.procHidepid(),
                    node.procHidesOthers(), JsonCheck.of(node.checks()));
        }
    }

    /** The tick lease. */
    public record Lease(String holder, BigDecimal acquiredAt, BigDecimal expiresAt, boolean held) {
    }

    /** The queue database; {@code exists} false means none yet (not a problem). */
    public record Database(String path, boolean ok, boolean exists, String error, Boolean wal, String filesystem,
                           String mountPoint, boolean networkFilesystem, Integer schemaVersion, int buildSchemaVersion,
                           Lease lease, BigDecimal lastTickAt, List<JsonCheck> checks) {

        static Database of(DatabaseReport report) {
            DatabaseDiagnosis db = report.diagnosis();
            Lease lease = db.lease() == null ? null : new Lease(db.lease().holder(), JsonJob.seconds(db.lease().acquiredAt()),
                    JsonJob.seconds(db.lease().expiresAt()), db.lease().held());
            return new Database(db.path().toString(), !report.needsAttention(), db.exists(), db.error(), db.wal(),
                    db.filesystem(), db.mountPoint() == null ? null : db.mountPoint().toString(), db.network(),
                    db.schemaVersion(), db.buildSchemaVersion(), lease, JsonJob.seconds(db.lastTickAt()),
                    JsonCheck.of(report.checks()));
        }
    }

    public static JsonDoctor of(Report report) {
        return new JsonDoctor(Json.SCHEMA_VERSION, !report.needsAttention(), report.problems(),
                report.nodes().stream().map(Node::of).toList(), Database.of(report.database()),
                JsonKeeper.of(report.database().keeper()));
    }

    private static BigDecimal millis(Double seconds) {
        return seconds == null ? null : BigDecimal.valueOf(seconds).setScale(3, RoundingMode.HALF_UP);
    }
}
