package dev.nvidb.queue;

import dev.nvidb.config.BackupConfig;
import dev.nvidb.engine.QueueEngine;
import dev.nvidb.error.StoreException;
import dev.nvidb.error.UsageException;
import dev.nvidb.store.Database;
import dev.nvidb.store.DatabaseCopy;
import dev.nvidb.store.MetaStore;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code queue backup}: a checked copy of {@code queue.db} (see {@link DatabaseCopy}) published
 * atomically and never over an existing file: the copy is written to a temporary file (0600) in
 * the target's folder, flushed to disk, then hard-linked to its name (which fails when the name
 * exists) and the temporary name removed; on any failure nothing but what existed before is
 * left. Rotation deletes only files this class named ({@code queue-YYYYMMDDTHHMMSSZ.db}).
 */
public final class Backups {

    /** The meta key of the last backup's time. */
    public static final String LAST_BACKUP_AT = "last_backup_at";
    /** Names of the backups nvidb makes, the only files rotation ever deletes. */
    static final Pattern NAME = Pattern.compile("queue-(\\d{8}T\\d{6}Z)(?:-(\\d{1,4}))?\\.db");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final QueueEngine engine;

    Backups(QueueEngine engine) {
        this.engine = engine;
    }

    /** Where backups go: {@code queue.backup.directory}, else {@code backups/} beside {@code queue.db}. */
    public Path directory() {
        BackupConfig config = engine.settings().queue().backup();
        if (config.directory() != null) {
            return config.directory();
        }
        Path parent = engine.database().file().getParent();
        return (parent == null ? Path.of(".") : parent).resolve("backups");
    }

    /** When the last backup was made, if one was. */
    public Optional<Instant> lastBackupAt() {
        return new MetaStore(engine.database()).getInstant(LAST_BACKUP_AT);
    }

    /**
     * Makes a backup: to {@code target} when given (which must not exist), else to a new
     * {@code queue-<UTC time>.db} in {@link #directory()} (created 0700). With {@code keep}, the
     * newest {@code keep} of nvidb's backups in that folder stay and older ones are deleted.
     */
    public BackupResult take(Path target, Integer keep) {
        Instant at = engine.clock().instant();
        Path published;
        if (target != null) {
            published = publish(checkTarget(target, directory()), false);
        } else {
            Path folder = directory().toAbsolutePath().normalize();
            createFolder(folder);
            published = publish(folder.resolve("queue-" + STAMP.format(at) + ".db"), true);
        }
        new MetaStore(engine.database()).putInstant(LAST_BACKUP_AT, at);
        List<Path> removed = keep == null ? List.of() : rotate(published.getParent(), keep);
        long bytes;
        try {
            bytes = Files.size(published);
        } catch (IOException e) {
            bytes = 0;
        }
        return new BackupResult(published, bytes, at, removed);
    }

    /**
     * {@code target} made absolute, when a backup may be written there: it does not exist and its
     * folder does; else the usage error that says so ({@code defaultFolder} in its hint). Callers
     * check before opening the queue, so a bad PATH changes nothing.
     */
    public static Path checkTarget(Path target, Path defaultFolder) {
        Path absolute = target.toAbsolutePath().normalize();
        if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            throw exists(absolute);
        }
        Path parent = absolute.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("cannot write the backup " + absolute + ": folder " + parent
                    + " does not exist", "create it first, or leave out PATH for " + defaultFolder);
        }
        return absolute;
    }

    /**
     * Deletes nvidb's backups in {@code folder} beyond the newest {@code keep} (by the time in
     * their names); any other file is left alone. Returns what was deleted.
     */
    public List<Path> rotate(Path folder, int keep) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep at least one backup");
        }
        List<Path> ours = new ArrayList<>();
        try (Stream<Path> entries = Files.list(folder)) {
            entries.filter(path -> NAME.matcher(path.getFileName().toString()).matches())
                    .filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
                    .forEach(ours::add);
        } catch (IOException e) {
            throw new StoreException("cannot list the backups in " + folder + ": " + e.getMessage(),
                    "check that you may read " + folder);
        }
        ours.sort(Comparator.comparing(Backups::stamp).thenComparing(Backups::sequence).reversed());
        List<Path> removed = new ArrayList<>();
        for (Path old : ours.subList(Math.min(keep, ours.size()), ours.size())) {
            try {
                Files.deleteIfExists(old);
                removed.add(old);
            } catch (IOException e) {
                throw new StoreException("cannot delete the old backup " + old + ": " + e.getMessage(),
                        "check that you may write to " + folder);
            }
        }
        return removed;
    }

    private static String stamp(Path path) {
        Matcher matcher = NAME.matcher(path.getFileName().toString());
        return matcher.matches() ? matcher.group(1) : "";
    }

    private static int sequence(Path path) {
        Matcher matcher = NAME.matcher(path.getFileName().toString());
        return matcher.matches() && matcher.group(2) != null ? Integer.parseInt(matcher.group(2)) : 0;
    }

    /**
     * Copies the database to a temporary file beside {@code name}, then links it to
     * {@code name}; when {@code renumber}, a name already taken becomes {@code name-2.db},
     * {@code -3}, … instead of failing. Returns the name published.
     */
    private Path publish(Path name, boolean renumber) {
        Path folder = name.getParent();
        Path temporary = folder.resolve("." + name.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            DatabaseCopy.copy(engine.database().file(), temporary, Database.DEFAULT_BUSY_TIMEOUT);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Path published = link(temporary, name, renumber);
            Files.delete(temporary);
            syncFolder(folder);
            return published;
        } catch (IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot write the backup " + name + ": " + e.getMessage(),
                    "check that you may write to " + folder + " and that it has room");
        } finally {
            for (String suffix : List.of("", "-journal", "-wal", "-shm")) {
                try {
                    Files.deleteIfExists(Path.of(temporary + suffix));
                } catch (IOException ignored) {
                    // Best effort: a stray temporary file is named as ours and holds no live data.
                }
            }
        }
    }

    private static Path link(Path temporary, Path name, boolean renumber) throws IOException {
        String base = name.getFileName().toString();
        for (int sequence = 1; ; sequence++) {
            Path candidate = sequence == 1 ? name
                    : name.resolveSibling(base.substring(0, base.length() - ".db".length()) + "-" + sequence + ".db");
            try {
                Files.createLink(candidate, temporary);
                return candidate;
            } catch (FileAlreadyExistsException taken) {
                if (!renumber || sequence >= 100) {
                    throw exists(candidate);
                }
            }
        }
    }

    private static UsageException exists(Path path) {
        return new UsageException("refusing to overwrite " + path + ": it exists",
                "give a new path, or leave out PATH for a new file in the backups folder");
    }

    private static void createFolder(Path folder) {
        if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(folder)) {
            throw new StoreException("cannot use " + folder + " for backups: it is not a folder",
                    "move it away, or set queue.backup.directory to a folder");
        }
        try {
            if (!Files.isDirectory(folder)) {
                Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            BasicFileAttributes attributes = Files.readAttributes(folder, BasicFileAttributes.class);
            if (!attributes.isDirectory()) {
                throw new StoreException(folder + " is not a folder", "set queue.backup.directory to a folder");
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot create the backups folder " + folder + ": " + e.getMessage(),
                    "check that you may write to " + folder.getParent());
        }
    }

    private static void syncFolder(Path folder) {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot sync a folder; the link itself is already in place.
        }
    }
}
