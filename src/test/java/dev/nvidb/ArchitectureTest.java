package dev.nvidb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Keeps the dependency rules of ARCHITECTURE.md true by reading import lines. */
class ArchitectureTest {

    private static final Path MAIN = Path.of(System.getProperty("nvidb.project.dir", "."), "src/main/java/dev/nvidb");

    /** Which packages may import a given library or project package. */
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "org.apache.sshd", Set.of("ssh"),
            "org.eclipse.jetty", Set.of("web"),
            "io.modelcontextprotocol", Set.of("mcp"),
            "reactor.", Set.of(),
            "com.fasterxml.jackson", Set.of("json", "output", "agent", "store", "alerts"),
            "java.sql", Set.of("sqlite", "store", "history"),
            "org.sqlite", Set.of("sqlite"),
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

    /** Every Jackson mapper is made by {@code json.Mappers}: one place says how nvidb reads and writes JSON. */
    @Test
    void onlyMappersMakesAJacksonMapper() throws IOException {
        List<String> violations = new ArrayList<>();
        Pattern making = Pattern.compile("new (ObjectMapper|JsonMapper)\\(|JsonMapper\\.builder\\(|\\.copy\\(\\)\\.set");
        for (Path file : sources()) {
            if (MAIN.relativize(file).toString().equals("json/Mappers.java")) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (making.matcher(lines.get(i)).find()) {
                    violations.add(MAIN.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    /**
     * Which project packages each package may use (besides itself), as ARCHITECTURE.md's table
     * says: dependencies point inward, {@code cli → app → daemon, tui, web, mcp → queue → engine and friends → scheduler,
     * store, ssh, agent → model}. A package missing here fails {@link #everyPackageHasARow}.
     */
    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            Map.entry("model", Set.of()),
            Map.entry("json", Set.of()),
            Map.entry("error", Set.of()),
            Map.entry("scheduler", Set.of("model")),
            Map.entry("config", Set.of("model", "error")),
            Map.entry("sqlite", Set.of("error")),
            Map.entry("store", Set.of("sqlite", "json", "model", "error")),
            Map.entry("ssh", Set.of("model", "error")),
            Map.entry("agent", Set.of("json", "model", "error")),
            Map.entry("node", Set.of("ssh", "agent", "config", "model", "error")),
            Map.entry("monitor", Set.of("node", "ssh", "agent", "config", "model", "error")),
            Map.entry("alerts", Set.of("json", "store", "config", "model", "error")),
            Map.entry("history", Set.of("sqlite", "monitor", "node", "model", "error")),
            Map.entry("engine", Set.of("monitor", "node", "ssh", "agent", "scheduler", "store", "config", "model", "error")),
            Map.entry("queue", Set.of("alerts", "engine", "monitor", "node", "agent", "scheduler", "store", "config", "model", "error")),
            Map.entry("keeper", Set.of("agent", "config", "model", "error")),
            Map.entry("doctor", Set.of("queue", "keeper", "node", "ssh", "agent", "config", "model", "error")),
            Map.entry("output", Set.of("json", "doctor", "queue", "scheduler", "keeper", "monitor", "config", "model", "error")),
            Map.entry("mcp", Set.of("doctor", "queue", "output", "model", "error")),
            Map.entry("daemon", Set.of("queue", "engine", "model", "error")),
            Map.entry("remote", Set.of("agent", "config", "model", "error")),
            Map.entry("app", Set.of("daemon", "remote", "tui", "web", "mcp", "history", "doctor", "keeper", "output", "queue", "monitor", "node", "ssh",
                    "agent", "config", "model", "error")),
            Map.entry("cli", Set.of("app", "daemon", "remote", "tui", "mcp", "history", "doctor", "queue", "keeper", "output", "monitor", "node", "ssh",
                    "agent", "config", "model", "error")),
            Map.entry("web", Set.of("history", "queue", "output", "monitor", "node", "agent", "model", "error")),
            Map.entry("tui", Set.of("queue", "keeper", "output", "monitor", "node", "scheduler", "config", "model", "error")));

    private static final Pattern PROJECT_TYPE = Pattern.compile("dev\\.nvidb\\.([a-z]+)\\.");

    @Test
    void everyPackageUsesOnlyWhatItsRowAllows() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String pkg = packageOf(file);
            Set<String> allowed = MAY_USE.getOrDefault(pkg, Set.of());
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("package ")) {
                    continue;
                }
                Matcher use = PROJECT_TYPE.matcher(line);
                while (use.find()) {
                    String target = use.group(1);
                    if (!target.equals(pkg) && !allowed.contains(target)) {
                        violations.add(MAIN.relativize(file) + ":" + (i + 1) + " uses " + target + ": " + line.strip());
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void everyPackageHasARow() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (Path file : sources()) {
            packages.add(packageOf(file));
        }
        packages.removeAll(MAY_USE.keySet());
        assertEquals(Set.of(), packages, "add the new package to MAY_USE and to ARCHITECTURE.md's table");
    }

    @Test
    void theTableHasNoCycles() {
        for (String start : MAY_USE.keySet()) {
            Set<String> reached = new TreeSet<>();
            List<String> todo = new ArrayList<>(MAY_USE.get(start));
            while (!todo.isEmpty()) {
                String next = todo.remove(todo.size() - 1);
                if (reached.add(next)) {
                    todo.addAll(MAY_USE.getOrDefault(next, Set.of()));
                }
            }
            assertEquals(false, reached.contains(start), start + " can reach itself through " + reached);
        }
    }

    @Test
    void frontEndsSeeNeitherTheStoreNorTheEngine() {
        for (String front : List.of("cli", "tui", "output", "web", "mcp")) {
            Set<String> allowed = MAY_USE.get(front);
            assertEquals(false, allowed.contains("store") || allowed.contains("engine"), front + " may use " + allowed);
        }
    }

    /**
     * The classes of {@code cli} that are not picocli commands or options (they import no
     * picocli), each with why it is the front end's own glue. Anything else that builds services
     * belongs in {@code app}, the daemon's socket in {@code daemon}, forwarding's pure parts in
     * {@code remote}.
     */
    private static final Map<String, String> CLI_GLUE = Map.ofEntries(
            Map.entry("Main", "the process's entry: hands a line off or forwards it, else runs Cli"),
            Map.entry("Context", "what a command gets from its process: environment, writers, streams"),
            Map.entry("Streams", "Context's byte streams and the terminal's controls"),
            Map.entry("ExitCodes", "how a command ended, as the process exit code (docs/exit-codes.md)"),
            Map.entry("Terminal", "width and colour of the command edge's output"),
            Map.entry("ContextCall", "the base of a command: the command factory hands it its Context"),
            Map.entry("Render", "job lines and tables several commands print"),
            Map.entry("Prompts", "questions a command asks a person on stderr and stdin"),
            Map.entry("JobIds", "job ids as typed on the command line"),
            Map.entry("Sizes", "sizes as typed in options (--vram)"),
            Map.entry("SubmitTicker", "starts the background ticker a submit leaves behind"),
            Map.entry("JobWaiting", "what job wait and submit --wait show while waiting"),
            Map.entry("HandoffService", "runs the requests handed to the daemon through Cli, as the commands they came from"),
            Map.entry("HandedCommand", "what a command the daemon may run makes of its parsed options, and takes back there"));

    /**
     * {@code cli} stays a thin front end (issue 27): at most 5,000 lines. What grows it past that
     * belongs in {@code app}, {@code queue}, {@code output} or {@code daemon}.
     */
    @Test
    void cliStaysAThinFrontEnd() throws IOException {
        long lines = 0;
        for (Path file : sources()) {
            if (packageOf(file).equals("cli")) {
                lines += Files.readAllLines(file).size();
            }
        }
        assertEquals(true, lines <= 5_000, "cli has " + lines + " lines");
    }

    /** {@code cli} holds picocli commands and the front end's own glue ({@link #CLI_GLUE}), nothing else. */
    @Test
    void cliHoldsCommandsAndTheirGlueOnly() throws IOException {
        List<String> strangers = new ArrayList<>();
        Set<String> unseenGlue = new TreeSet<>(CLI_GLUE.keySet());
        for (Path file : sources()) {
            if (!packageOf(file).equals("cli")) {
                continue;
            }
            String name = file.getFileName().toString().replace(".java", "");
            unseenGlue.remove(name);
            boolean picocli = Files.readAllLines(file).stream()
                    .anyMatch(line -> line.startsWith("import picocli") || line.startsWith("import static picocli"));
            if (!picocli && !CLI_GLUE.containsKey(name)) {
                strangers.add(name);
            }
        }
        assertEquals(List.of(), strangers, "move it to app, daemon or remote, or name it in CLI_GLUE with a reason");
        assertEquals(Set.of(), unseenGlue, "CLI_GLUE names a class cli no longer has");
    }

    @Test
    void schedulerDoesNoIoAndReadsNoClock() throws IOException {
        List<String> io = new ArrayList<>();
        for (Path file : sources()) {
            if (packageOf(file).equals("scheduler")) {
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

    private static String packageOf(Path file) {
        return MAIN.relativize(file).getName(0).toString();
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
