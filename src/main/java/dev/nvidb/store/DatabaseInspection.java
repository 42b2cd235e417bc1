package dev.nvidb.store;

import dev.nvidb.error.StoreException;
import dev.nvidb.sqlite.SqliteFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads a queue database for {@code nvidb doctor} without changing it: never created, migrated
 * or written, and no {@code -wal}/{@code -shm} file left behind. The journal mode and schema
 * version come from the file's header; the lease and the last tick through a read-only
 * connection, opened {@code immutable} when no {@code -wal} file exists (nobody has the
 * database open, so the main file holds everything), else {@code mode=ro} over the files
 * the other clients keep.
 */
public final class DatabaseInspection {

    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = 100;

    /**
     * What the database says about itself.
     *
     * @param wal           the header's file format is WAL (bytes 18 and 19 are 2)
     * @param schemaVersion {@code PRAGMA user_version}
     * @param lease         the tick lease, or null when the schema is empty or newer than this build
     * @param lastTickAt    when the last tick ended, or null
     */
    public record Facts(boolean wal, int schemaVersion, Lease lease, Instant lastTickAt) {
    }

    private DatabaseInspection() {
    }

    /** The facts of the database at {@code file}; empty when there is no such file. */
    public static Optional<Facts> inspect(Path file) {
        Optional<Header> header = header(file);
        if (header.isEmpty() || !header.get().known()) {
            return header.map(read -> new Facts(read.wal(), read.version(), null, null));
        }
        return Optional.of(read(file, header.get().wal()));
    }

    /** What the first page says: the journal mode and {@code user_version}; empty when there is no file. */
    private record Header(boolean wal, int version) {

        /** A schema this build reads. */
        boolean known() {
            return version >= 1 && version <= Migrations.CURRENT_VERSION;
        }
    }

    private static Optional<Header> header(Path file) {
        byte[] header = new byte[HEADER_BYTES];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(header, 0, HEADER_BYTES);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new StoreException("cannot read " + file + ": " + e.getMessage(), "check its permissions", e);
        }
        if (read == 0) {
            return Optional.of(new Header(false, 0));
        }
        if (read < HEADER_BYTES || !Arrays.equals(Arrays.copyOf(header, MAGIC.length), MAGIC)) {
            throw new StoreException(file + " is not an SQLite database",
                    "move it aside; the next queue command creates a new one");
        }
        boolean wal = header[18] == 2 && header[19] == 2;
        int version = ((header[60] & 0xff) << 24) | ((header[61] & 0xff) << 16) | ((header[62] & 0xff) << 8)
                | (header[63] & 0xff);
        return Optional.of(new Header(wal, version));
    }

    /**
     * The node rows of the database at {@code file}, read without changing anything as
     * {@link #inspect} reads; empty when there is no such file, or its schema is not one this
     * build knows (no rows to go by: the caller decides as for a new queue).
     */
    public static List<NodeRecord> nodes(Path file) {
        if (!header(file).map(Header::known).orElse(false)) {
            return List.of();
        }
        try (Connection connection = readOnly(file)) {
            return NodeStore.list(connection);
        } catch (SQLException e) {
            throw Database.WORDING.failure("read the nodes of " + file, e);
        }
    }

    /** A connection that cannot write: {@code immutable} when no {@code -wal} file exists, else {@code mode=ro}. */
    private static Connection readOnly(Path file) throws SQLException {
        boolean shared = Files.exists(Path.of(file + "-wal"));
        return SqliteFile.connectReadOnly(file, !shared, Duration.ofMillis(2000));
    }

    private static Facts read(Path file, boolean wal) {
        try (Connection connection = readOnly(file)) {
            int version;
            try (PreparedStatement statement = connection.prepareStatement("PRAGMA user_version");
                 ResultSet rows = statement.executeQuery()) {
                version = rows.next() ? rows.getInt(1) : 0;
            }
            return new Facts(wal, version, LeaseStore.read(connection), lastTick(connection));
        } catch (SQLException e) {
            throw Database.WORDING.failure("read " + file, e);
        }
    }

    private static Instant lastTick(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            statement.setString(1, MetaStore.LAST_TICK_AT);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next() || rows.getString(1) == null) {
                    return null;
                }
                try {
                    return Instant.ofEpochMilli(Long.parseLong(rows.getString(1).strip()));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
    }
}
