package dev.nvidb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Keeps the dependency rules of ARCHITECTURE.md true by reading import lines. */
class ArchitectureTest {

    private static final Path MAIN = Path.of(System.getProperty("nvidb.project.dir", "."), "src/main/java/dev/nvidb");

    /** Which packages may import a given library or project package. */
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "org.apache.sshd", Set.of("ssh"),
            "com.fasterxml.jackson", Set.of("output", "agent"),
            "java.sql", Set.of("store"),
            "org.yaml.snakeyaml", Set.of("config"),
            "org.jline", Set.of("tui", "cli"),
            "picocli", Set.of("cli"));

    @Test
    void librariesStayInTheirPackages() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String pkg = MAIN.relativize(file).getName(0).toString();
            for (String line : Files.readAllLines(file)) {
                if (!line.startsWith("import ")) {
                    continue;
                }
                ALLOWED.forEach((library, packages) -> {
                    if (line.startsWith("import " + library) || line.startsWith("import static " + library)) {
                        if (!packages.contains(pkg)) {
                            violations.add(MAIN.relativize(file) + ": " + line);
                        }
                    }
                });
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void modelImportsNothingElseFromTheProject() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String pkg = MAIN.relativize(file).getName(0).toString();
            if (!pkg.equals("model")) {
                continue;
            }
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import dev.nvidb.") && !line.startsWith("import dev.nvidb.model.")) {
                    violations.add(MAIN.relativize(file) + ": " + line);
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void onlyTheCommandEdgePrintsToTheProcessStreams() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            if (file.getFileName().toString().equals("Main.java")) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("System.out.") || lines.get(i).contains("System.err.")) {
                    violations.add(MAIN.relativize(file) + ":" + (i + 1));
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> MAIN.relativize(path).getNameCount() > 1)
                    .toList();
        }
    }
}
