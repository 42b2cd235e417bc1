package dev.nvidb.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a directory holds, to show that a command changed nothing: every file's kind and bytes
 * (a digest), and for a readable queue database a logical dump (each table's rows in key order,
 * plus {@code user_version}) instead of its bytes, which SQLite may rewrite without changing
 * a row. Compare two with {@code equals}; {@code toString} names what differs.
 *
 * @param files    relative path to its kind and digest
 * @param database the logical dump of the database, or empty when it is compared by bytes
 */
public record HomeSnapshot(Map<String, String> files, List<String> database) {

    /**
     * Takes the snapshot of {@code root}. When {@code logical} names a database under it, that
     * file and its {@code -wal} and {@code -shm} companions are dumped through JDBC instead of
     * being read as bytes (open the database only after listing, so the dump's own -wal/-shm are
     * not counted).
     */
    public static HomeSnapshot of(Path root, Path logical) throws IOException, SQLException {
        Map<String, String> files = new TreeMap<>();
        try (var walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                String name = root.relativize(path).toString();
                if (logical != null && path.toString().startsWith(logical.toString())
                        && List.of("", "-wal", "-shm", "-journal").contains(path.toString().substring(logical.toString().length()))) {
                    continue;
                }
                if (path.getFileName().toString().equals(".config.yml.lock") && Files.size(path) == 0) {
                    // The empty file config writers lock on: it may be created, never removed (a
                    // removal would race a writer waiting on it), and holds no configuration.
                    continue;
                }
                files.put(name, describe(path));
            }
        }
        List<String> database = logical == null ? List.of() : dump(logical);
        return new HomeSnapshot(files, database);
    }

    /** What differs from {@code after}, in a few lines (empty when nothing does). */
    public String differences(HomeSnapshot after) {
        StringBuilder text = new StringBuilder();
        java.util.Set<String> names = new java.util.TreeSet<>(files.keySet());
        names.addAll(after.files.keySet());
        for (String name : names) {
            if (!java.util.Objects.equals(files.get(name), after.files.get(name))) {
                text.append("file ").append(name).append(": ").append(files.get(name)).append(" -> ")
                        .append(after.files.get(name)).append('\n');
            }
        }
        List<String> removed = new ArrayList<>(database);
        removed.removeAll(after.database);
        List<String> added = new ArrayList<>(after.database);
        added.removeAll(database);
        removed.forEach(line -> text.append("- ").append(line, 0, Math.min(line.length(), 300)).append('\n'));
        added.forEach(line -> text.append("+ ").append(line, 0, Math.min(line.length(), 300)).append('\n'));
        return text.toString();
    }

    private static String describe(Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            return "link " + Files.readSymbolicLink(path);
        }
        if (Files.isDirectory(path)) {
            return "dir";
        }
        if (!Files.isRegularFile(path)) {
            return "special";
        }
        try {
            return "file " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code user_version}, the schema, and every table's rows as text, ordered by all their
     * columns in order (the key first in every nvidb table, so key order).
     */
    public static List<String> dump(Path database) throws SQLException {
        List<String> lines = new ArrayList<>();
        if (!Files.exists(database)) {
            lines.add("(no database)");
            return lines;
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
             Statement statement = connection.createStatement()) {
            try (ResultSet version = statement.executeQuery("PRAGMA user_version")) {
                version.next();
                lines.add("user_version " + version.getInt(1));
            }
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery(
                    "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger', 'view') ORDER BY type, name")) {
                while (rows.next()) {
                    lines.add("schema " + rows.getString(1) + ": " + rows.getString(2));
                    if (rows.getString(2) != null && rows.getString(2).startsWith("CREATE TABLE")) {
                        tables.add(rows.getString(1));
                    }
                }
            }
            for (String table : tables) {
                int columns;
                try (ResultSet probe = statement.executeQuery("SELECT * FROM \"" + table + "\" LIMIT 0")) {
                    columns = probe.getMetaData().getColumnCount();
                }
                String order = String.join(", ", java.util.stream.IntStream.rangeClosed(1, columns)
                        .mapToObj(Integer::toString).toList());
                try (ResultSet rows = statement.executeQuery("SELECT * FROM \"" + table + "\" ORDER BY " + order)) {
                    ResultSetMetaData meta = rows.getMetaData();
                    while (rows.next()) {
                        StringBuilder row = new StringBuilder(table).append(':');
                        for (int column = 1; column <= meta.getColumnCount(); column++) {
                            row.append(' ').append(meta.getColumnName(column)).append('=').append(rows.getString(column));
                        }
                        lines.add(row.toString());
                    }
                }
            }
        }
        return lines;
    }
}
