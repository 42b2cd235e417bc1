package dev.nvidb.app;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Locale;

/**
 * Points SQLite's JDBC driver at the native library the build unpacked next to the jar, as
 * {@code bin/nvidb} does, for a JVM started some other way ({@code java -jar target/nvidb.jar}).
 * Without it the driver copies its library into the temporary directory at every start and
 * removes the copy only at an orderly JVM exit, which a process ended by a signal, or by a
 * submit's exit hook halting it, never reaches: one leaked megabyte per run.
 */
public final class SqliteNative {

    static final String PATH = "org.sqlite.lib.path";
    static final String NAME = "org.sqlite.lib.name";
    private static final String LIBRARY = "libsqlitejdbc.so";

    private SqliteNative() {
    }

    /** Sets the driver's library path when nothing set it and the build's copy fits this jar. */
    public static void useTheBuildsCopy() {
        if (System.getProperty(PATH) != null || System.getProperty(NAME) != null) {
            return;
        }
        Path jar = runningJar();
        if (jar == null) {
            return;
        }
        Path library = libraryBeside(jar, System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        if (library != null) {
            System.setProperty(PATH, library.getParent().toString());
            System.setProperty(NAME, LIBRARY);
        }
    }

    /**
     * The build's copy of the library for this platform beside {@code jar}, or null when there is
     * none, it cannot be read, or it is older than the jar (a rebuilt jar whose driver version may
     * have changed: the driver then unpacks its own).
     */
    static Path libraryBeside(Path jar, String osName, String osArch) {
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        if (arch == null || !osName.startsWith("Linux") || jar.getParent() == null) {
            return null;
        }
        Path library = jar.getParent().resolve("native/org/sqlite/native/Linux").resolve(arch).resolve(LIBRARY);
        try {
            if (!Files.isRegularFile(library) || !Files.isReadable(library)
                    || Files.getLastModifiedTime(library).compareTo(Files.getLastModifiedTime(jar)) < 0) {
                return null;
            }
        } catch (java.io.IOException e) {
            return null;
        }
        return library;
    }

    private static Path runningJar() {
        try {
            CodeSource source = SqliteNative.class.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return null;
            }
            Path path = Path.of(source.getLocation().toURI());
            return path.toString().endsWith(".jar") && Files.isRegularFile(path) ? path : null;
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }
}
