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
            "com.fasterxml.jackson", Set.of("output", "agent", "store"),
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
        assertEquals(List.of(), projectImportsOutside("model", Set.of("model")));
    }

    @Test
    void schedulerIsPureAndSeesOnlyTheModel() throws IOException {
        assertEquals(List.of(), projectImportsOutside("scheduler", Set.of("model", "scheduler")));
        List<String> io = new ArrayList<>();
        for (Path file : sources()) {
            if (MAIN.relativize(file).getName(0).toString().equals("scheduler")) {
                for (String line : Files.readAllLines(file)) {
                    if (line.startsWith("import java.io") || line.startsWith("import java.nio")
                            || line.startsWith("import java.net") || line.contains("Clock")) {
                        io.add(MAIN.relativize(file) + ": " + line);
                    }
                }
            }
        }
        assertEquals(List.of(), io, "the scheduler does no I/O and reads no clock");
    }

    private static List<String> projectImportsOutside(String pkg, Set<String> allowed) throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            if (!MAIN.relativize(file).getName(0).toString().equals(pkg)) {
                continue;
            }
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import dev.nvidb.")) {
                    String target = line.substring("import dev.nvidb.".length()).split("\\.")[0];
                    if (!allowed.contains(target)) {
                        violations.add(MAIN.relativize(file) + ": " + line);
                    }
                }
            }
        }
        return violations;
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
