package dev.nvidb.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's configuration files as last read (path, size, time and inode of each; an absent
 * file counts too): a daemon whose files changed reads its configuration again.
 */
public final class ConfigWatch {

    private final List<Path> paths;
    private List<String> stamps;

    /** Stamps {@code paths} now: take the stamp before reading them, so an edit made meanwhile is seen later. */
    public ConfigWatch(Path... paths) {
        this.paths = List.of(paths);
        this.stamps = stamps();
    }

    /** The name of a file that changed since the last look, or null. */
    public String changed() {
        List<String> now = stamps();
        for (int i = 0; i < paths.size(); i++) {
            if (!now.get(i).equals(stamps.get(i))) {
                return paths.get(i).getFileName().toString();
            }
        }
        return null;
    }

    /** The files as they are now count as seen. */
    public void accept() {
        stamps = stamps();
    }

    private List<String> stamps() {
        List<String> result = new ArrayList<>();
        for (Path path : paths) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                result.add(attributes.size() + " " + attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS) + " "
                        + attributes.fileKey());
            } catch (IOException e) {
                result.add("absent");
            }
        }
        return result;
    }
}
