package dev.nvidb.keeper;

import dev.nvidb.config.NvidbHome;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where the keeper keeps its files: the script, lock, pid file and log under {@code NVIDB_HOME},
 * and the systemd user unit under {@code $XDG_CONFIG_HOME/systemd/user} (else
 * {@code ~/.config/systemd/user}). Writes are atomic and owner-only.
 */
record KeeperFiles(Path home, Path unitDir) {

    /** The systemd user unit's name. */
    static final String UNIT = "nvidb-queue.service";

    static KeeperFiles of(NvidbHome home, Map<String, String> environment) {
        String config = environment.get("XDG_CONFIG_HOME");
        Path base = config != null && config.startsWith("/") ? Path.of(config) : home.userHome().resolve(".config");
        return new KeeperFiles(home.dir(), base.resolve("systemd").resolve("user"));
    }

    Path script() {
        return home.resolve("queue-keeper.sh");
    }

    Path lock() {
        return home.resolve("queue-keeper.lock");
    }

    Path pidFile() {
        return home.resolve("queue-keeper.pid");
    }

    Path log() {
        return home.resolve("queue-keeper.log");
    }

    Path oldLog() {
        return home.resolve("queue-keeper.log.1");
    }

    Path unit() {
        return unitDir.resolve(UNIT);
    }

    /**
     * Replaces {@code target} with {@code content} (mode {@code mode}, e.g. "rwx------"): a temp
     * file in the same directory, fsync, rename. A script being run keeps reading the old file.
     */
    static void write(Path target, String content, String mode) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString(mode));
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
