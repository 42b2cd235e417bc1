package dev.nvidb.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.queue.Mounts;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which filesystem holds the queue database, from mountinfo text, and which types are network ones. */
class MountsTest {

    private static final String MOUNTINFO = String.join("\n",
            "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw",
            "23 22 0:21 / /proc rw,nosuid - proc proc rw,hidepid=invisible",
            "40 22 0:40 / /home rw,relatime shared:20 - nfs4 fs:/export/home rw,vers=4.2",
            "41 40 0:41 / /home/alice/local rw,relatime - xfs /dev/sdb1 rw",
            "42 22 0:42 / /mnt/my\\040share rw - cifs //nas/share rw",
            "43 22 0:43 / /mnt/remote rw,nosuid master:7 - fuse.sshfs alice@login:/data rw",
            "44 22 0:44 / /tmp rw - tmpfs tmpfs rw",
            "45 44 0:45 / /tmp rw - overlay overlay rw",
            "not a mountinfo line",
            "");

    @ParameterizedTest
    @CsvSource({
            "/home/alice/.nvidb/queue.db, nfs4, /home, true",
            "/home/alice/local/queue.db, xfs, /home/alice/local, false",
            "/home/alicex/queue.db, nfs4, /home, true",
            "/var/lib/queue.db, ext4, /, false",
            "/mnt/my share/q.db, cifs, /mnt/my share, true",
            "/mnt/remote/nvidb/queue.db, fuse.sshfs, /mnt/remote, true",
            "/tmp/q.db, overlay, /tmp, false"})
    void theLongestMountPointHoldingThePathDecides(String path, String type, String mountPoint, boolean network) {
        Mounts.Mount mount = Mounts.parse(MOUNTINFO).find(Path.of(path)).orElseThrow();
        assertEquals(type, mount.type());
        assertEquals(Path.of(mountPoint), mount.mountPoint());
        assertEquals(network, mount.network());
    }

    @ParameterizedTest
    @CsvSource({"nfs, true", "nfs4, true", "cifs, true", "smb3, true", "9p, true", "fuse.sshfs, true",
            "fuse.glusterfs, true", "ceph, true", "lustre, true", "ext4, false", "xfs, false", "btrfs, false",
            "zfs, false", "tmpfs, false", "overlay, false", "fuse, false", "fuse.gocryptfs, false"})
    void networkFilesystemTypes(String type, boolean network) {
        assertEquals(network, Mounts.network(type));
    }
}
