package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A private PATH folder of symlinks to the basic tools a node has, minus python, for hosts without python3. */
final class ToolFolder {

    /** The tools linked in; python3 is deliberately absent. */
    static final List<String> TOOLS = List.of(
            "sh", "bash", "cat", "env", "echo", "printf", "test", "true", "false", "sleep", "kill", "ps",
            "mkdir", "rm", "rmdir", "mv", "cp", "ln", "ls", "chmod", "touch", "stat", "readlink", "dirname",
            "basename", "head", "tail", "wc", "cut", "tr", "sort", "uniq", "grep", "sed", "awk", "date", "id",
            "hostname", "uname", "setsid", "nohup", "timeout", "df", "tee", "find", "xargs", "base64", "od",
            "dd", "flock", "pgrep", "pkill", "getconf", "nproc");

    private ToolFolder() {
    }

    /** Creates {@code dir} with links to whichever of {@link #TOOLS} exist here; returns it. */
    static Path withoutPython(Path dir) {
        try {
            Files.createDirectories(dir);
            for (String tool : TOOLS) {
                Path link = dir.resolve(tool);
                for (String base : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
                    Path target = Path.of(base, tool);
                    if (Files.isExecutable(target) && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, target);
                    }
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
