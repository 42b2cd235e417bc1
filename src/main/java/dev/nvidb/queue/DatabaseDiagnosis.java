package dev.nvidb.queue;

import dev.nvidb.config.FileTrust;
import dev.nvidb.error.NvidbException;
import dev.nvidb.store.DatabaseInspection;
import dev.nvidb.store.Lease;
import dev.nvidb.store.Migrations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * What {@code nvidb doctor} learns about a queue database, read without changing it (never
 * created, migrated or written): whether it exists, its journal mode, the filesystem it lies on,
 * its schema version against this build's, the tick lease and the last tick.
 *
 * @param path               the database file
 * @param exists             false when there is no queue database yet
 * @param error              why it could not be read (another user's file, not SQLite), or null
 * @param errorHint          how to fix that, or null
 * @param wal                the database is in WAL mode (null when unknown)
 * @param filesystem         the type of the filesystem holding its directory, or null if unknown
 * @param mountPoint         that filesystem's mount point, or null
 * @param network            the filesystem is a network one (NFS, SMB, sshfs, …), where WAL is unsafe
 * @param schemaVersion      its {@code user_version}, or null
 * @param buildSchemaVersion the schema version this build writes
 * @param lease              the tick lease, or null when unknown
 * @param lastTickAt         when the last tick ended, or null
 */
public record DatabaseDiagnosis(Path path, boolean exists, String error, String errorHint, Boolean wal, String filesystem,
                                Path mountPoint, boolean network, Integer schemaVersion, int buildSchemaVersion,
                                LeaseView lease, Instant lastTickAt) {

    /**
     * The tick lease as stored.
     *
     * @param holder     who holds it (host, pid, command), or null when released
     * @param acquiredAt when the holder took it, or null
     * @param expiresAt  when it lapses unless renewed
     * @param held       someone holds it unexpired now
     */
    public record LeaseView(String holder, Instant acquiredAt, Instant expiresAt, boolean held) {
    }

    /** Examines {@code database}, judging its filesystem by {@code mountinfo} (the text of /proc/self/mountinfo, or null). */
    public static DatabaseDiagnosis of(Path database, String mountinfo, Instant now) {
        Path file = database.toAbsolutePath().normalize();
        Optional<Mounts.Mount> mount = mountinfo == null ? Optional.empty()
                : Mounts.parse(mountinfo).find(existingDirectory(file));
        String type = mount.map(Mounts.Mount::type).orElse(null);
        Path mountPoint = mount.map(Mounts.Mount::mountPoint).orElse(null);
        boolean network = mount.map(Mounts.Mount::network).orElse(false);
        int build = Migrations.CURRENT_VERSION;
        if (!Files.exists(file)) {
            return new DatabaseDiagnosis(file, false, null, null, null, type, mountPoint, network, null, build, null, null);
        }
        try {
            FileTrust.requireTrustedDatabase(file);
            DatabaseInspection.Facts facts = DatabaseInspection.inspect(file).orElse(null);
            if (facts == null) {
                return new DatabaseDiagnosis(file, false, null, null, null, type, mountPoint, network, null, build, null, null);
            }
            Lease lease = facts.lease();
            LeaseView view = lease == null ? null
                    : new LeaseView(lease.holder(), lease.acquiredAt(), lease.expiresAt(), lease.held(now));
            return new DatabaseDiagnosis(file, true, null, null, facts.wal(), type, mountPoint, network, facts.schemaVersion(),
                    build, view, facts.lastTickAt());
        } catch (NvidbException e) {
            return new DatabaseDiagnosis(file, true, e.getMessage(), e.hint().orElse(null), null, type, mountPoint, network, null, build,
                    null, null);
        }
    }

    /** Reads this process's mount table; null when it cannot be read (not Linux). */
    public static String readMountinfo() {
        try {
            return Files.readString(Path.of("/proc/self/mountinfo"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The nearest existing directory holding {@code file}, with links resolved (what the filesystem is judged by). */
    private static Path existingDirectory(Path file) {
        Path dir = file.getParent();
        while (dir != null && !Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        if (dir == null) {
            return file;
        }
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir;
        }
    }
}
