package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The pythons a lab's node may have as {@code python3}, from the pyenv builds of the development
 * and CI image ({@code $PYENV_ROOT/versions}, else {@code /root/.pyenv/versions}): the oldest the
 * agent supports and one it refuses. A missing build is a {@link Prerequisite}: it skips the
 * test outside CI and fails it in CI.
 */
public final class OldPythons {

    /** The old minor versions the agent must run on. */
    public static final List<String> SUPPORTED = List.of("3.6", "3.7", "3.8");
    /** A python3 older than the agent supports (no 3.5 build is on the image; 2.7 stands in). */
    public static final String TOO_OLD = "2.7";

    private OldPythons() {
    }

    /** The install folder ({@code bin/}, {@code lib/}) of the newest build of {@code minor}, such as "3.6". */
    public static Path install(String minor) {
        Path versions = Path.of(Optional.ofNullable(System.getenv("PYENV_ROOT")).orElse("/root/.pyenv"), "versions");
        Optional<Path> found = Optional.empty();
        if (Files.isDirectory(versions)) {
            try (Stream<Path> builds = Files.list(versions)) {
                found = builds.filter(build -> build.getFileName().toString().matches("\\Q" + minor + "\\E\\.\\d+"))
                        .filter(build -> Files.isExecutable(build.resolve("bin/python" + minor)))
                        .max(Comparator.comparingInt(OldPythons::micro));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Prerequisite.require(found.isPresent(), "no pyenv build of python " + minor + " in " + versions
                + " (the development and CI image has one: pyenv install " + minor + ")");
        return found.orElseThrow();
    }

    /** The interpreter of {@link #install}: {@code bin/python3.6}. */
    public static Path interpreter(String minor) {
        return install(minor).resolve("bin/python" + minor);
    }

    private static int micro(Path build) {
        String name = build.getFileName().toString();
        return Integer.parseInt(name.substring(name.lastIndexOf('.') + 1));
    }
}
