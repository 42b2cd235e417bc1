package dev.nvidb.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.nvidb.app.SqliteNative;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which native SQLite library a JVM started without the launcher is pointed at. */
class SqliteNativeTest {

    @TempDir
    Path build;

    private Path jarAndLibrary(String arch, long jarMillis, long libraryMillis) throws Exception {
        Path jar = Files.writeString(build.resolve("nvidb.jar"), "jar");
        Path library = build.resolve("native/org/sqlite/native/Linux/" + arch + "/libsqlitejdbc.so");
        Files.createDirectories(library.getParent());
        Files.writeString(library, "so");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(jarMillis));
        Files.setLastModifiedTime(library, FileTime.fromMillis(libraryMillis));
        return jar;
    }

    @Test
    void theBuildsCopyForThisArchitectureIsUsed() throws Exception {
        Path jar = jarAndLibrary("x86_64", 1_000_000, 2_000_000);
        Path expected = build.resolve("native/org/sqlite/native/Linux/x86_64/libsqlitejdbc.so");
        assertEquals(expected, SqliteNative.libraryBeside(jar, "Linux", "amd64"));
        assertEquals(expected, SqliteNative.libraryBeside(jar, "Linux", "x86_64"));
        Path arm = jarAndLibrary("aarch64", 1_000_000, 1_000_000);   // as old as the jar: still fits
        assertEquals(build.resolve("native/org/sqlite/native/Linux/aarch64/libsqlitejdbc.so"),
                SqliteNative.libraryBeside(arm, "Linux", "aarch64"));
    }

    @Test
    void aCopyOlderThanTheJarIsNotUsed() throws Exception {
        Path jar = jarAndLibrary("x86_64", 2_000_000, 1_000_000);
        assertNull(SqliteNative.libraryBeside(jar, "Linux", "amd64"));
    }

    @Test
    void otherPlatformsAndMissingCopiesLeaveTheDriverAlone() throws Exception {
        Path jar = jarAndLibrary("x86_64", 1_000_000, 2_000_000);
        assertNull(SqliteNative.libraryBeside(jar, "Mac OS X", "x86_64"));
        assertNull(SqliteNative.libraryBeside(jar, "Linux", "riscv64"));
        assertNull(SqliteNative.libraryBeside(jar, "Linux", "aarch64"), "no aarch64 copy was built");
        assertNull(SqliteNative.libraryBeside(build.resolve("elsewhere/nvidb.jar"), "Linux", "amd64"));
    }
}
