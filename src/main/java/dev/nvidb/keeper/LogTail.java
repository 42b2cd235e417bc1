package dev.nvidb.keeper;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The last lines of a log kept in parts (oldest first), reading at most 2 MiB of each. */
final class LogTail {

    private static final long MOST = 2L << 20;

    private LogTail() {
    }

    static List<String> last(List<Path> parts, int count) {
        List<String> lines = new ArrayList<>();
        for (Path part : parts) {
            lines.addAll(lines(part));
        }
        return count >= lines.size() ? lines : List.copyOf(lines.subList(lines.size() - count, lines.size()));
    }

    private static List<String> lines(Path file) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long from = Math.max(0, length - MOST);
            byte[] bytes = new byte[(int) (length - from)];
            in.seek(from);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
            if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1);
            }
            if (from > 0 && !lines.isEmpty()) {
                lines.remove(0); // cut mid-line
            }
            return lines;
        } catch (IOException e) {
            return List.of();
        }
    }
}
