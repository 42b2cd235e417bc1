package dev.nvidb.queue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The mount table as {@code /proc/self/mountinfo} gives it, and which filesystem holds a path:
 * the mount with the longest mount point that contains it (the last one listed, where mounts
 * are stacked). Pure: the text is read by the caller.
 */
public final class Mounts {

    /** One mount: where, and the filesystem type ({@code ext4}, {@code nfs4}, {@code fuse.sshfs}). */
    public record Mount(Path mountPoint, String type) {

        /** True for a filesystem other machines share, where SQLite's WAL (shared memory, locks) is unsafe. */
        public boolean network() {
            return Mounts.network(type);
        }
    }

    private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "9p", "afs",
            "ceph", "glusterfs", "lustre", "gpfs", "beegfs", "ocfs2", "gfs2", "davfs", "coda", "sshfs", "s3fs",
            "rclone", "juicefs", "cvmfs", "orangefs", "pvfs2", "xtreemfs", "moosefs", "mfs", "lizardfs", "weka");

    private final List<Mount> mounts;

    private Mounts(List<Mount> mounts) {
        this.mounts = List.copyOf(mounts);
    }

    /** Parses mountinfo text; lines that are not mountinfo lines are skipped. */
    public static Mounts parse(String mountinfo) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            String[] fields = line.trim().split(" ");
            int separator = List.of(fields).indexOf("-");
            if (fields.length < 5 || separator < 6 || separator + 1 >= fields.length) {
                continue;
            }
            mounts.add(new Mount(Path.of(unescape(fields[4])), fields[separator + 1]));
        }
        return new Mounts(mounts);
    }

    /** The mount that holds {@code path} (absolute and with links resolved), if any mount contains it. */
    public Optional<Mount> find(Path path) {
        Mount best = null;
        for (Mount mount : mounts) {
            if (path.startsWith(mount.mountPoint())
                    && (best == null || mount.mountPoint().getNameCount() >= best.mountPoint().getNameCount())) {
                best = mount;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * True for a network or cluster filesystem type: NFS, SMB/CIFS, 9p, AFS, Ceph, Gluster,
     * Lustre, GPFS, BeeGFS, sshfs and other FUSE network mounts ({@code fuse.sshfs}).
     */
    public static boolean network(String type) {
        String base = type.startsWith("fuse.") ? type.substring("fuse.".length()) : type;
        int dot = base.indexOf('.');
        return NETWORK.contains(base) || dot > 0 && NETWORK.contains(base.substring(0, dot));
    }

    /** mountinfo writes space, tab, newline and backslash in paths as octal escapes ({@code \040}). */
    private static String unescape(String field) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                text.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }
}
