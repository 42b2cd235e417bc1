package dev.nvidb.app;

import dev.nvidb.config.ConfigLoader;
import dev.nvidb.config.ConfigWriter;
import dev.nvidb.config.ConfiguredServer;
import dev.nvidb.config.DatabaseFiles;
import dev.nvidb.config.NvidbConfig;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.RemovedServers;
import dev.nvidb.config.ServerConfig;
import dev.nvidb.error.NvidbException;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Units;
import dev.nvidb.queue.JobSelection;
import dev.nvidb.queue.JobView;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the {@code nvidb clean} commands share: the servers the config files list, the GPU log's
 * files, the warnings owed before a queue node goes, and the two deletions with what they print.
 * The queue's own data (queue.db, its backups, alerts.log, job directories) is never touched.
 */
public final class Cleanup {

    private final Wiring.Front context;
    private final Wiring wiring;

    /** @param context where the cleanup's lines go (stderr) and its environment */
    public Cleanup(Wiring.Front context, Wiring wiring) {
        this.context = context;
        this.wiring = wiring;
    }

    public NvidbHome home() {
        return wiring.config().home();
    }

    /**
     * The configuration as the files say now: a menu removes servers more than once, so the one
     * {@link Wiring} loaded first (whose warnings it printed) goes stale.
     */
    private NvidbConfig config() {
        wiring.config();
        return new ConfigLoader(home(), context.environment()).load();
    }

    /** Every server of config.yml and of queue.yml's own {@code servers:}, read afresh. */
    public List<ConfiguredServer> servers() {
        wiring.config(); // the files' trust checks and warnings, once
        return new ConfigWriter(home()).listServers();
    }

    /** A usage error naming the first of {@code names} no config file lists, and those it does. */
    public void requireKnown(Collection<String> names) {
        List<String> known = servers().stream().map(ConfiguredServer::name).toList();
        for (String name : names) {
            if (!known.contains(name)) {
                throw new UsageException("no server named '" + name + "' in " + home().display(home().configYml())
                        + " or " + home().display(home().queueYml()) + "; known: "
                        + (known.isEmpty() ? "none" : String.join(", ", known)), null);
            }
        }
    }

    /** The files that list any of {@code names}, as shown: "~/.nvidb/config.yml and ~/.nvidb/queue.yml". */
    public String filesOf(Collection<String> names) {
        List<String> files = new ArrayList<>();
        List<ConfiguredServer> chosen = servers().stream().filter(server -> names.contains(server.name())).toList();
        if (chosen.stream().anyMatch(ConfiguredServer::inConfigYml)) {
            files.add(home().display(home().configYml()));
        }
        if (chosen.stream().anyMatch(ConfiguredServer::inQueueYml)) {
            files.add(home().display(home().queueYml()));
        }
        return String.join(" and ", files);
    }

    /**
     * One line per server of {@code names} the queue runs jobs on and would lose (taken out of
     * config.yml, and of queue.yml with {@code queueYmlToo}): what removing it means, and
     * the jobs running there (from queue.db, read without contacting any node) to cancel first.
     */
    public List<String> queueWarnings(Collection<String> names, boolean queueYmlToo) {
        NvidbConfig config = config();
        // Taken out of config.yml only, a server queue.yml lists stays a queue node.
        List<String> kept = queueYmlToo ? List.of() : servers().stream().filter(ConfiguredServer::inQueueYml)
                .map(ConfiguredServer::name).toList();
        List<String> queueNodes = config.queueServers().stream().map(ServerConfig::name)
                .filter(name -> names.contains(name) && !kept.contains(name)).toList();
        if (queueNodes.isEmpty()) {
            return List.of();
        }
        Map<String, List<Long>> running = runningJobs();
        List<String> lines = new ArrayList<>();
        for (String node : queueNodes) {
            List<Long> ids = running.getOrDefault(node, List.of());
            String jobs = ids.stream().map(String::valueOf).reduce((a, b) -> a + " " + b).orElse("");
            lines.add(ids.isEmpty()
                    ? "note: " + node + " is a queue node: once removed, no new jobs are placed there"
                    : "warning: " + node + " is a queue node with " + ids.size() + " running job"
                    + (ids.size() == 1 ? "" : "s") + " (" + jobs + "): once removed, the queue no longer watches"
                    + " them; cancel them first with 'nvidb job cancel " + jobs + "'");
        }
        return lines;
    }

    /** Running jobs by node, from an existing local queue.db; empty when there is none or it cannot be read. */
    private Map<String, List<Long>> runningJobs() {
        NvidbConfig config = config();
        if (config.findRemote().isPresent() || !Files.exists(config.home().queueDb())) {
            return Map.of();
        }
        Wiring.QueueChoice options = new ReadOnlyChoice();
        Map<String, List<Long>> byNode = new TreeMap<>();
        try {
            for (JobView view : wiring.queue(options).reading().listJobs(new JobSelection(Set.of(JobState.RUNNING), null, null))) {
                view.job().status().placement().map(Assignment::node).ifPresent(node ->
                        byNode.computeIfAbsent(node, key -> new ArrayList<>()).add(view.job().id()));
            }
        } catch (NvidbException e) {
            context.err().println("nvidb: warning: cannot read " + config.home().display(config.home().queueDb())
                    + " to look for running jobs: " + e.getMessage());
        }
        return byNode;
    }

    /**
     * Removes {@code names} from config.yml and, with {@code queueYmlToo}, from queue.yml; says
     * what went where, and where the queue's jobs now run.
     */
    public void removeServers(Collection<String> names, boolean queueYmlToo) {
        NvidbConfig before = config();
        RemovedServers removed = new ConfigWriter(home()).removeServers(new LinkedHashSet<>(names), queueYmlToo);
        if (!removed.fromConfigYml().isEmpty()) {
            context.err().println("removed " + String.join(", ", removed.fromConfigYml()) + " from "
                    + home().display(home().configYml()));
        }
        if (!removed.fromQueueYml().isEmpty()) {
            context.err().println("removed " + String.join(", ", removed.fromQueueYml()) + " from "
                    + home().display(home().queueYml()));
        }
        QueueNodesNotice.afterRemoving(context, before);
    }

    /**
     * The GPU log's files: {@code --db-path}, else {@code $NVIDB_HOME/gpu_log.db}. A directory, the
     * queue's database or a file that is not a SQLite database is a usage error: this command
     * deletes only what it was made for.
     */
    public DatabaseFiles gpuLog(String dbPath) {
        NvidbHome home = home();
        Path file = dbPath == null ? config().log().dbPath() : home.expand(dbPath);
        DatabaseFiles log = new DatabaseFiles(file);
        if (Files.isDirectory(log.database())) {
            throw new UsageException("--db-path " + dbPath + " is a directory",
                    "give the GPU log's database file, e.g. " + home.display(home.gpuLogDb()));
        }
        if (sameFile(log.database(), home.queueDb())) {
            throw new UsageException(home.display(log.database()) + " is the queue's database, which nvidb clean"
                    + " never deletes", "'nvidb queue gc' removes finished jobs from it");
        }
        if (!log.looksLikeSqlite()) {
            throw new UsageException(home.display(log.database()) + " is not a SQLite database; nothing deleted",
                    "give the GPU log's database file, e.g. " + home.display(home.gpuLogDb()));
        }
        refuseWhileOpen(log.database());
        return log;
    }

    /**
     * Refuses to delete a log a process on this machine has open ({@code nvidb log} writing it,
     * {@code nvidb web} or an sqlite3 shell reading it): found by the process's open files in
     * {@code /proc}, read-only, without opening the database. Processes of other users are not
     * visible unless this runs as root.
     */
    private void refuseWhileOpen(Path file) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (java.io.IOException e) {
            return;
        }
        long self = ProcessHandle.current().pid();
        try (java.util.stream.Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                String name = process.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
                    continue;
                }
                if (holds(process.resolve("fd"), real)) {
                    String command = ProcessHandle.of(Long.parseLong(name)).flatMap(h -> h.info().commandLine())
                            .map(Cleanup::shortCommand).orElse("?");
                    throw new UsageException(home().display(file) + " is open in process " + name + " (" + command
                            + "); nothing deleted", "stop it first (nvidb log: Ctrl-C where it runs)");
                }
            }
        } catch (java.io.IOException | UncheckedIOException noProc) {
            // No /proc to look in: nothing to refuse on.
        }
    }

    /** A command line as its user typed it: {@code nvidb log ...} for our own launcher's JVM; cut at 80 characters. */
    private static String shortCommand(String line) {
        int jar = line.indexOf("nvidb.jar ");
        String shown = jar >= 0 ? "nvidb " + line.substring(jar + "nvidb.jar ".length()) : line;
        return shown.length() > 80 ? shown.substring(0, 77) + "..." : shown;
    }

    private static boolean holds(Path fds, Path file) {
        try (java.util.stream.Stream<Path> links = Files.list(fds)) {
            for (Path link : (Iterable<Path>) links::iterator) {
                try {
                    if (Files.readSymbolicLink(link).equals(file)) {
                        return true;
                    }
                } catch (java.io.IOException | UnsupportedOperationException gone) {
                    // The descriptor closed meanwhile.
                }
            }
        } catch (java.io.IOException | UncheckedIOException notOurs) {
            // Another user's process, or it ended.
        }
        return false;
    }

    /** The log's existing files and their size: "~/.nvidb/gpu_log.db, gpu_log.db-wal (1.2 MiB)". */
    public String describe(DatabaseFiles log) {
        List<Path> files = log.existing();
        List<String> names = new ArrayList<>();
        for (int index = 0; index < files.size(); index++) {
            names.add(index == 0 ? home().display(files.get(index)) : files.get(index).getFileName().toString());
        }
        return String.join(", ", names) + " (" + Units.fileSize(log.bytes()) + ")";
    }

    /** Deletes the log's files and says so. */
    public void deleteLog(DatabaseFiles log) {
        String what = describe(log);
        log.delete(home());
        context.err().println("deleted " + what);
    }

    /** Prints {@code lines} on stderr. */
    public void say(List<String> lines) {
        lines.forEach(context.err()::println);
    }

    /** The server {@code word} names in the menu: its number in {@code servers} (from 1), or its name. */
    public static Optional<String> pick(String word, List<ConfiguredServer> servers) {
        if (word.matches("[0-9]{1,9}")) {
            int number = Integer.parseInt(word);
            return number >= 1 && number <= servers.size() ? Optional.of(servers.get(number - 1).name()) : Optional.empty();
        }
        return servers.stream().map(ConfiguredServer::name).filter(word::equals).findFirst();
    }

    /** A server in the menu: its name, its host when another, and the files listing it. */
    public static String label(ConfiguredServer server) {
        String where = server.inConfigYml() && server.inQueueYml() ? "config.yml, queue.yml"
                : server.inQueueYml() ? "queue.yml" : "config.yml";
        String host = server.server().hostname();
        return server.name() + (host.equals(server.name()) ? "" : " (" + host + ")") + "  [" + where + "]";
    }

    private static boolean sameFile(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** What {@code nvidb clean all} deletes ({@code servers} of config.yml, the GPU {@code log}) and what it keeps, exactly. */
    public List<String> listing(List<String> servers, DatabaseFiles log) {
        NvidbHome home = home();
        List<String> lines = new ArrayList<>();
        lines.add("nvidb clean all deletes:");
        if (!servers.isEmpty()) {
            lines.add("  the servers in " + home.display(home.configYml()) + ": " + String.join(", ", servers)
                    + " (its other settings stay)");
        }
        if (!log.existing().isEmpty()) {
            lines.add("  the GPU log " + describe(log));
        }
        lines.add("and keeps:");
        List<String> queueYml = servers().stream().filter(ConfiguredServer::inQueueYml)
                .map(ConfiguredServer::name).toList();
        if (Files.exists(home.queueYml())) {
            lines.add("  " + home.display(home.queueYml()) + (queueYml.isEmpty() ? ""
                    : " and its servers: " + String.join(", ", queueYml)));
        }
        lines.add("  the queue's database " + home.display(home.queueDb()) + (Files.exists(home.queueDb())
                ? " (jobs and their history; 'nvidb queue gc' trims it)" : " (there is none)"));
        return lines;
    }
}
