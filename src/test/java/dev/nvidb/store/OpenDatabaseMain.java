package dev.nvidb.store;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A separate process for {@link ConcurrentOpenTest}: warms up, says {@code ready}, waits for a
 * line on stdin so all processes start together, then opens the database, writes its name into
 * {@code meta} and reads it back. Exit 0 on success; the error on stderr otherwise.
 */
public final class OpenDatabaseMain {

    private OpenDatabaseMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String name = args[1];
        // Load the driver and its native library before the start line, so the processes collide on the file.
        Database.open(Path.of(args[2])).close();
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        try (Database database = Database.open(file)) {
            MetaStore meta = new MetaStore(database);
            meta.put(name, "opened");
            if (!meta.get(name).orElseThrow().equals("opened")) {
                throw new IllegalStateException("wrote but did not read back " + name);
            }
        }
        System.out.println("ok");
    }
}
