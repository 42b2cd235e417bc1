package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses files and directories that another user could have written, as OpenSSH does for
 * {@code ~/.ssh}: the nvidb directory ({@code NVIDB_HOME}), its config files, the queue
 * database with its {@code -wal} and {@code -shm} files, and this machine's job root. Each must
 * be owned by the effective user (or by root) and not writable by group or others. A symlink
 * is judged by its target. Only the path itself is checked, not its parents: a sticky
 * {@code /tmp} above an nvidb directory of one's own is fine. A directory that only holds the
 * database (given with {@code --db-path}) may be shared if it is sticky, as {@code /tmp} is:
 * then nobody can replace a file of ours there, and a planted {@code -wal} is refused on its own.
 * Missing paths pass (nvidb creates them owner-only). Where ownership cannot be read (no
 * POSIX attributes, no {@code /proc}) the check passes rather than locking the user out.
 */
public final class FileTrust {

    private FileTrust() {
    }

    /** Refuses {@code path} ({@code what}, e.g. "NVIDB_HOME") unless it is ours and not writable by others. */
    public static void requireTrusted(Path path, String what) {
        check(path, what, false);
    }

    /**
     * Refuses the directory holding the queue database unless it is ours and not writable by
     * others, or it is sticky (like {@code /tmp}).
     */
    public static void requireTrustedParent(Path dir, String what) {
        check(dir, what, true);
    }

    /** The queue database and the files SQLite keeps beside it. */
    public static void requireTrustedDatabase(Path database) {
        Path parent = database.toAbsolutePath().getParent();
        if (parent != null) {
            requireTrustedParent(parent, "the queue database's directory");
        }
        for (String suffix : List.of("", "-wal", "-shm")) {
            requireTrusted(database.resolveSibling(database.getFileName() + suffix), "queue database file");
        }
    }

    private static void check(Path path, String what, boolean stickyIsFine) {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, PosixFileAttributes.class);
        } catch (NoSuchFileException missing) {
            return;
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        if (attributes.isOther()) {
            return; // a device or FIFO is no file nvidb keeps: the caller refuses it as such (ConfigFileBytes)
        }
        String shown = shown(path);
        Optional<Integer> me = effectiveUid();
        Integer owner = uid(path);
        if (me.isPresent() && owner != null && owner != 0 && !owner.equals(me.get())) {
            throw new ConfigException("refusing " + what + " " + shown + ": it is owned by " + attributes.owner().getName()
                    + " (uid " + owner + "), not by you (uid " + me.get() + "); another user could control what nvidb runs",
                    "use a " + (attributes.isDirectory() ? "directory" : "file") + " of your own (set NVIDB_HOME, or"
                            + " remove " + path + " if you did not put it there)");
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        boolean group = permissions.contains(PosixFilePermission.GROUP_WRITE);
        boolean others = permissions.contains(PosixFilePermission.OTHERS_WRITE);
        if ((group || others) && !(stickyIsFine && attributes.isDirectory() && sticky(path))) {
            String who = group && others ? "group and others" : group ? "its group" : "others";
            throw new ConfigException("refusing " + what + " " + shown + ": it is writable by " + who
                    + "; another user could plant files nvidb trusts", "chmod go-w " + path);
        }
    }

    /** The path, and where it leads when it is a symlink (the target is what is judged). */
    private static String shown(Path path) {
        if (!Files.isSymbolicLink(path)) {
            return path.toString();
        }
        try {
            return path + " (a link to " + path.toRealPath() + ")";
        } catch (IOException e) {
            return path.toString();
        }
    }

    private static Integer uid(Path path) {
        try {
            return (Integer) Files.getAttribute(path, "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return null;
        }
    }

    private static boolean sticky(Path dir) {
        try {
            return ((Integer) Files.getAttribute(dir, "unix:mode") & 01000) != 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return false;
        }
    }

    /** This process's effective uid, from {@code /proc/self/status} (empty where there is none). */
    static Optional<Integer> effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Optional.of(Integer.parseInt(line.substring(4).trim().split("\\s+")[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
