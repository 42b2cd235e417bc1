package dev.nvidb.config;

import dev.nvidb.error.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A SQLite database as files: the database itself and the {@code -wal} and {@code -shm} files
 * SQLite keeps beside it. Says which exist and how large they are, and deletes them, for
 * {@code nvidb clean} (which never opens the database: the GPU history's schema is not its
 * business).
 *
 * @param database the database file
 */
public record DatabaseFiles(Path database) {

    private static final byte[] HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    public DatabaseFiles {
        database = database.toAbsolutePath().normalize();
    }

    /** The database, its write-ahead log and its shared-memory index, whether they exist or not. */
    public List<Path> paths() {
        return List.of(database, sibling("-wal"), sibling("-shm"));
    }

    /** Those of {@link #paths} that exist (a link counts as itself, never as what it names). */
    public List<Path> existing() {
        return paths().stream().filter(path -> Files.exists(path, LinkOption.NOFOLLOW_LINKS)).toList();
    }

    /** The bytes the existing files take, together. */
    public long bytes() {
        long total = 0;
        for (Path path : existing()) {
            try {
                total += Files.size(path);
            } catch (IOException e) {
                // gone since it was listed, or unreadable: it adds nothing to the figure shown
            }
        }
        return total;
    }

    /**
     * Whether the database file, where it exists, is a regular file starting with SQLite's header
     * (an empty one counts: SQLite creates it so). Where it does not exist, whether its companions
     * are regular files.
     */
    public boolean looksLikeSqlite() {
        if (!Files.exists(database, LinkOption.NOFOLLOW_LINKS)) {
            return existing().stream().allMatch(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS));
        }
        if (!Files.isRegularFile(database, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(database)) {
            byte[] start = in.readNBytes(HEADER.length);
            return start.length == 0 || Arrays.equals(start, HEADER);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Deletes the files, the write-ahead log and index first so that a database is never left
     * beside a stale log; returns those deleted. A file that cannot be deleted stops the removal
     * with a {@link StoreException} naming it and what is left.
     */
    public List<Path> delete(NvidbHome home) {
        List<Path> deleted = new ArrayList<>();
        List<Path> order = List.of(sibling("-wal"), sibling("-shm"), database);
        for (Path path : order) {
            try {
                Files.delete(path);
                deleted.add(path);
            } catch (NoSuchFileException e) {
                // not there: nothing to delete
            } catch (IOException e) {
                List<Path> left = existing();
                throw new StoreException("cannot delete " + home.display(path) + ": " + reason(e)
                        + (left.isEmpty() ? "" : "; still there: " + String.join(", ",
                        left.stream().map(home::display).toList())),
                        "check the directory's permissions, and that no other program holds the file", e);
            }
        }
        return deleted;
    }

    private Path sibling(String suffix) {
        return database.resolveSibling(database.getFileName() + suffix);
    }

    private static String reason(IOException e) {
        return e instanceof AccessDeniedException ? "permission denied"
                : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
