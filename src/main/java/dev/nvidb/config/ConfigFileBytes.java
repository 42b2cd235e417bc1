package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Reads a config file's bytes: a regular file (a symlink to one is fine) of at most
 * {@link #LIMIT} bytes. Anything else is one clear {@link ConfigException} before the file is
 * opened: a FIFO would block the command until someone writes to it, {@code /dev/zero} would
 * fill the memory, and a dangling symlink is not the same as no file.
 */
final class ConfigFileBytes {

    /** The most bytes a config file may have; real ones are a few hundred. */
    static final int LIMIT = 1 << 20;

    private ConfigFileBytes() {
    }

    /** The file's bytes, or empty when there is no file (not even a symlink) at {@code file}. */
    static Optional<byte[]> read(Path file, String display) throws IOException {
        BasicFileAttributes link;
        try {
            link = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        BasicFileAttributes target;
        try {
            target = link.isSymbolicLink() ? Files.readAttributes(file, BasicFileAttributes.class) : link;
        } catch (NoSuchFileException e) {
            throw new ConfigException(display + " is a symbolic link to " + Files.readSymbolicLink(file)
                    + ", which does not exist", "create the file it points to, or remove the link to use the defaults");
        }
        if (!target.isRegularFile()) {
            throw new ConfigException(display + " is not a regular file (" + kind(target) + ")",
                    "replace it with a YAML file, or remove it to use the defaults");
        }
        if (target.size() > LIMIT) {
            throw tooLarge(display);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(LIMIT + 1);
            if (bytes.length > LIMIT) {
                throw tooLarge(display);
            }
            return Optional.of(bytes);
        }
    }

    private static ConfigException tooLarge(String display) {
        return new ConfigException(display + " is larger than " + (LIMIT >> 20) + " MiB, too large for a config file",
                "check that it is the right file; a config file is a few lines of YAML");
    }

    private static String kind(BasicFileAttributes attributes) {
        return attributes.isDirectory() ? "a directory" : attributes.isOther() ? "a FIFO, socket or device" : "not a file";
    }
}
