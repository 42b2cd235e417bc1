import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Joins the node agent's parts into the one script the jar ships. The build runs it with the
 * JDK's source launcher, before the resources are copied (pom.xml, execution {@code join-agent}):
 *
 * <pre>java remote-agent/JoinAgent.java PARTS_DIR LIST_FILE OUT_FILE</pre>
 *
 * The script is every part the list names, in the list's order, each behind one line naming it
 * ({@code # ---- remote-agent/src/NAME ----}), the parts separated by two empty lines; a part's
 * bytes are copied as they are. The list has one file name a line; empty lines and lines
 * starting with {@code #} are skipped. Nothing is joined when the list names a part twice or
 * one that is missing, when a {@code .py} file in the parts' folder is not listed, or when a
 * part does not end with a newline. {@code AgentPartsTest} holds the jar's copy to this.
 */
public final class JoinAgent {

    private JoinAgent() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            fail("usage: java JoinAgent.java PARTS_DIR LIST_FILE OUT_FILE");
        }
        Path parts = Path.of(args[0]);
        Path out = Path.of(args[2]);
        try {
            byte[] script = join(parts, names(Path.of(args[1]), parts));
            if (!Files.exists(out) || !Arrays.equals(Files.readAllBytes(out), script)) {
                Files.createDirectories(out.toAbsolutePath().getParent());
                Files.write(out, script);
            }
        } catch (IOException | UncheckedIOException e) {
            fail("cannot join the agent: " + e);
        }
    }

    /** The parts the list names, in its order, checked against the folder's .py files. */
    private static List<String> names(Path list, Path parts) throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            if (!name.matches("[A-Za-z0-9_]+\\.py")) {
                fail(list + ": not a part's file name: " + name);
            }
            if (names.contains(name)) {
                fail(list + " names " + name + " twice");
            }
            if (!Files.isRegularFile(parts.resolve(name))) {
                fail(list + " names " + name + ", which is not in " + parts);
            }
            names.add(name);
        }
        TreeSet<String> unlisted = new TreeSet<>();
        try (Stream<Path> files = Files.list(parts)) {
            files.map(file -> file.getFileName().toString()).filter(file -> file.endsWith(".py"))
                    .filter(file -> !names.contains(file)).forEach(unlisted::add);
        }
        if (!unlisted.isEmpty()) {
            fail(parts + " holds " + String.join(", ", unlisted) + ", which " + list + " does not list");
        }
        if (names.isEmpty()) {
            fail(list + " lists no parts");
        }
        return names;
    }

    private static byte[] join(Path parts, List<String> names) throws IOException {
        var script = new java.io.ByteArrayOutputStream();
        for (String name : names) {
            byte[] part = Files.readAllBytes(parts.resolve(name));
            if (part.length == 0 || part[part.length - 1] != '\n') {
                fail(parts.resolve(name) + " does not end with a newline");
            }
            if (script.size() > 0) {
                script.write('\n');
                script.write('\n');
            }
            script.write(("# ---- remote-agent/src/" + name + " ----\n").getBytes(StandardCharsets.US_ASCII));
            script.write(part);
        }
        return script.toByteArray();
    }

    private static void fail(String message) {
        System.err.println("JoinAgent: " + message);
        System.exit(1);
    }
}
