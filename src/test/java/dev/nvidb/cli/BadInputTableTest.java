package dev.nvidb.cli;

import static dev.nvidb.cli.BadInputCase.damagedPages;
import static dev.nvidb.cli.BadInputCase.databaseIsADirectory;
import static dev.nvidb.cli.BadInputCase.empty;
import static dev.nvidb.cli.BadInputCase.garbageDatabase;
import static dev.nvidb.cli.BadInputCase.newerDatabase;
import static dev.nvidb.cli.BadInputCase.queue;
import static dev.nvidb.cli.BadInputCase.queueWith;
import static dev.nvidb.cli.BadInputCase.queueWithFifo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.testing.HomeSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The bad-input table (issue 12): every command of the tree fed malformed values, missing
 * files, unknown ids, oversized and non-UTF-8 input, a damaged or newer {@code queue.db}, and
 * config files with unknown keys, bad values, tabs, stray bytes, 2 MiB or a FIFO. Each row
 * must give its exit code (never 0) and one {@code nvidb: } line (plus at most the
 * {@code hint:} line) naming what was wrong, no stack trace, with {@code --json} exactly one
 * error envelope on stdout, and leave everything as it was: the queue's rows and
 * {@code user_version} (a logical dump), every other file's bytes, and a damaged or newer
 * database byte for byte, without a -wal or -shm it did not have. {@link #everyCommandHasARow}
 * fails when a command of {@link CommandTree} has no row, so a new command must get one.
 * Run in-process through {@link Cli#run}; {@code BadInputIT} runs the nastiest rows through
 * {@code bin/nvidb}.
 */
class BadInputTableTest {

    @TempDir
    static Path templateHome;

    /** A queue with a few jobs (pending, one with name, tag and note in a group, one cancelled). */
    private static Path template;

    @TempDir
    Path home;

    @BeforeAll
    static void seedTemplateQueue() throws Exception {
        Map<String, String> env = CliRun.localQueue(templateHome);
        String[][] jobs = {
                {"job", "submit", "--no-tick", "--gpus", "0", "--", "true"},
                {"job", "submit", "--no-tick", "--gpus", "0", "--name", "second", "--tag", "t", "--note", "n",
                        "--group", "g", "--env", "A=1", "--", "sleep", "1"},
                {"job", "submit", "--no-tick", "--gpus", "0", "--", "false"},
                {"job", "cancel", "--no-tick", "3"}};
        for (String[] args : jobs) {
            CliRun run = CliRun.run(env, args);
            assertEquals(0, run.exitCode(), String.join(" ", args) + ": " + run.stderr());
        }
        template = templateHome.resolve(".nvidb");
    }

    private static final String BIG = "x".repeat(2 * 1024 * 1024);
    private static final byte[] NOT_UTF8 = {'q', 'u', 'e', 'u', 'e', ':', '\n', ' ', ' ', '#', (byte) 0xff, '\n'};

    private static BadInputCase row(String name, BadInputCase.Setup setup, int exit, String message, String... args) {
        return new BadInputCase(name, setup, List.of(args), exit, message);
    }

    static Stream<BadInputCase> table() {
        return Stream.of(
                // nvidb (the monitor) and --once
                row("--once --interval abc", empty(), 2, "Invalid value for option '--interval'", "--once", "--interval", "abc"),
                row("unknown root option", empty(), 2, "Unknown option: '--bogus'", "--bogus"),
                row("--once with an unknown config key", queueWith("config.yml", "basic:\n  colour: red\n"), 2,
                        "unknown key 'colour'", "--once"),
                row("--once --remote with a tab in config.yml", queueWith("config.yml", "servers:\n\t- hostname: a\n"), 2,
                        "config.yml", "--once", "--remote"),
                row("--interval below the floor", empty(), 2, "--interval", "--once", "--interval", "-1"),
                // ls, add, import, info, trust, doctor
                row("ls with a non-UTF-8 config.yml", queueWith("config.yml", NOT_UTF8), 2, "config.yml", "ls"),
                row("ls with a 2 MiB config.yml", queueWith("config.yml", "#" + BIG), 2, "too large for a config file", "ls"),
                row("ls with config.yml a FIFO", queueWithFifo("config.yml"), 2, "config.yml", "ls"),
                row("add --port 70000", empty(), 2, "--port", "add", "--hostname", "gpu-a", "--port", "70000"),
                row("add --auth magic", empty(), 2, "--auth", "add", "--hostname", "gpu-a", "--auth", "magic"),
                row("add a non-UTF-8 hostname", empty(), 2, "not valid UTF-8", "add", "--hostname", "gpu\uFFFD"),
                row("import a missing file", empty(), 2, "no/such/ssh_config", "import", "{home}/no/such/ssh_config"),
                row("import a 2 MiB host name", queueWith("big_ssh_config", "Host " + BIG + "\n"), 2, "refusing to write",
                        "import", "{home}/.nvidb/big_ssh_config"),
                row("import a non-UTF-8 file", queueWith("bad_ssh_config", new byte[] {'H', 'o', 's', 't', ' ', (byte) 0xfe, '\n'}),
                        2, "bad_ssh_config", "import", "{home}/.nvidb/bad_ssh_config"),
                row("info with a bad value", queueWith("config.yml", "basic:\n  connect_timeout: soon\n"), 2,
                        "connect_timeout", "info"),
                row("trust an unknown server", empty(), 2, "nowhere", "trust", "nowhere"),
                row("trust with config.yml a FIFO", queueWithFifo("config.yml"), 2, "config.yml", "trust", "gpu-a"),
                row("doctor with an unknown queue.yml key", queueWith("queue.yml", "queue:\n  local_node_name: here\n  colour: red\n"),
                        2, "unknown key 'colour'", "doctor"),
                row("doctor --bogus", queue(), 2, "Unknown option: '--bogus'", "doctor", "--bogus"),
                // log, log web, web
                row("log --interval 0.1", empty(), 2, "--interval", "log", "--interval", "0.1"),
                row("log --db-path queue.db", queue(), 1, "queue.db", "log", "--db-path", "{home}/.nvidb/queue.db",
                        "--duration", "5"),
                row("log --duration abc", empty(), 2, "--duration", "log", "--duration", "abc"),
                row("log web --port 70000", empty(), 2, "--port", "log", "web", "--port", "70000"),
                row("web --port -1", empty(), 2, "--port", "web", "--port", "-1"),
                row("mcp --bogus", queue(), 2, "Unknown option: '--bogus'", "mcp", "--bogus"),
                row("mcp with an unknown queue.yml key", queueWith("queue.yml", "queue:\n  local_node_name: here\n  colour: red\n"),
                        2, "colour", "mcp"),
                row("web --bind an address not here", empty(), 2, "203.0.113.9", "web", "--bind", "203.0.113.9", "--port", "1"),
                // clean
                row("clean without a terminal", empty(), 2, "terminal", "clean"),
                row("clean servers unknown", empty(), 2, "nowhere", "clean", "servers", "nowhere", "--yes"),
                row("clean logs --db-path queue.db", queue(), 2, "is the queue's database, which nvidb clean never deletes", "clean", "logs", "--db-path",
                        "{home}/.nvidb/queue.db", "--yes"),
                row("clean all --db-path a text file", queueWith("notes.txt", "hello\n"), 2, "is not a SQLite database; nothing deleted",
                        "clean", "all", "--db-path", "{home}/.nvidb/notes.txt", "--yes"),
                // job
                row("job frobnicate", queue(), 2, "frobnicate", "job", "frobnicate"),
                // job submit: values
                row("submit --vram 20X", queue(), 2, "--vram takes a size", "job", "submit", "--no-tick", "--vram", "20X", "--", "x"),
                row("submit --gpus two", queue(), 2, "Invalid value for option '--gpus'", "job", "submit", "--no-tick",
                        "--gpus", "two", "--", "x"),
                row("submit --after an unknown job", queue(), 2, "job 99 does not exist", "job", "submit", "--no-tick",
                        "--after", "99", "--", "x"),
                // A waiting line starts its agents before it is parsed (HeadStart): still nothing changes.
                row("submit --wait --gpus two", queue(), 2, "Invalid value for option '--gpus'", "job", "submit", "--wait",
                        "--gpus", "two", "--", "x"),
                row("submit --wait --after an unknown job", queue(), 2, "job 99 does not exist", "job", "submit", "--wait",
                        "--after", "99", "--", "x"),
                row("submit --timeout forever", queue(), 2, "--timeout", "job", "submit", "--no-tick", "--timeout",
                        "forever", "--", "x"),
                row("submit --op-id with a space", queue(), 2, "--op-id 'a b' is not valid", "job", "submit", "--no-tick",
                        "--op-id", "a b", "--", "x"),
                // job submit: files
                row("submit --script missing", queue(), 2, "cannot read --script", "job", "submit", "--no-tick", "--script",
                        "{home}/no/such/run.sh"),
                row("submit --script a directory", queue(), 2, "--script", "job", "submit", "--no-tick", "--script", "{home}"),
                row("submit --script 2 MiB", queueWith("big.sh", "echo " + BIG + "\n"), 2, "MAX_ARG_STRLEN", "job", "submit",
                        "--no-tick", "--gpus", "0", "--script", "{home}/.nvidb/big.sh"),
                row("submit --script not UTF-8", queueWith("bad.sh", new byte[] {'e', 'c', 'h', 'o', ' ', (byte) 0xc3, '(', '\n'}),
                        2, "is not UTF-8 text", "job", "submit", "--no-tick", "--script", "{home}/.nvidb/bad.sh"),
                // job submit: oversized and non-UTF-8 words
                row("submit an oversized --name", queue(), 2, "name", "job", "submit", "--no-tick", "--gpus", "0",
                        "--name", "n".repeat(200_000), "--", "true"),
                row("submit an oversized --env value", queue(), 2, "131071", "job", "submit", "--no-tick", "--gpus", "0",
                        "--env", "A=" + "v".repeat(200_000), "--", "true"),
                row("submit an oversized command", queue(), 2, "MAX_ARG_STRLEN", "job", "submit", "--no-tick", "--gpus", "0",
                        "--", "echo", "w".repeat(200_000)),
                row("submit command and env over 1 MiB together", queue(), 2, "1048576", "job", "submit", "--no-tick",
                        "--gpus", "0", "--env", "A1=" + "v".repeat(120_000), "--env", "A2=" + "v".repeat(120_000),
                        "--env", "A3=" + "v".repeat(120_000), "--env", "A4=" + "v".repeat(120_000),
                        "--env", "A5=" + "v".repeat(120_000), "--env", "A6=" + "v".repeat(120_000),
                        "--env", "A7=" + "v".repeat(120_000), "--env", "A8=" + "v".repeat(120_000),
                        "--env", "A9=" + "v".repeat(120_000), "--", "echo", "w".repeat(120_000)),
                row("submit a non-UTF-8 command word", queue(), 2, "not valid UTF-8", "job", "submit", "--no-tick",
                        "--gpus", "0", "--", "echo", "a\uFFFDb"),
                row("submit an unpaired surrogate in --note", queue(), 2, "not valid UTF-8", "job", "submit", "--no-tick",
                        "--note", "\uD800", "--", "true"),
                row("submit a NUL in --tag", queue(), 2, "NUL", "job", "submit", "--no-tick", "--tag", "a\0b", "--", "true"),
                // job submit: the database and queue.yml
                row("submit into a garbage queue.db", garbageDatabase(), 1, "queue.db", "job", "submit", "--no-tick",
                        "--gpus", "0", "--", "true"),
                row("submit into a queue.db with damaged pages", damagedPages(), 1, "queue.db", "job", "submit", "--no-tick",
                        "--gpus", "0", "--", "true"),
                row("submit into a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "job", "submit",
                        "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with an unknown queue.yml key", queueWith("queue.yml", "queue:\n  local_node_name: here\n  colour: red\n"),
                        2, "unknown key 'colour'", "job", "submit", "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with a bad queue.yml value", queueWith("queue.yml", "queue:\n  local_node_name: here\n  headroom: lots\n"),
                        2, "queue.yml:3", "job", "submit", "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with a tab in queue.yml", queueWith("queue.yml", "queue:\n\tlocal_node_name: here\n"), 2,
                        "queue.yml", "job", "submit", "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with a non-UTF-8 queue.yml", queueWith("queue.yml", NOT_UTF8), 2, "queue.yml", "job", "submit",
                        "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with a 2 MiB queue.yml", queueWith("queue.yml", "#" + BIG), 2, "too large for a config file",
                        "job", "submit", "--no-tick", "--gpus", "0", "--", "true"),
                row("submit with queue.yml a FIFO", queueWithFifo("queue.yml"), 2, "queue.yml", "job", "submit", "--no-tick",
                        "--gpus", "0", "--", "true"),
                // job ls, show, why, logs, wait
                row("ls --state sleeping", queue(), 2, "unknown job state 'sleeping'", "job", "ls", "--no-tick", "--state", "sleeping"),
                row("ls -n -3", queue(), 2, "--limit", "job", "ls", "--no-tick", "-n", "-3"),
                row("ls a garbage queue.db", garbageDatabase(), 1, "queue.db", "job", "ls", "--no-tick"),
                row("ls a queue.db with damaged pages", damagedPages(), 1, "queue.db", "job", "ls", "--no-tick"),
                row("ls when queue.db is a directory", databaseIsADirectory(), 1, "queue.db", "job", "ls", "--no-tick"),
                row("submit when queue.db is a directory", databaseIsADirectory(), 1, "queue.db", "job", "submit",
                        "--no-tick", "--gpus", "0", "--", "true"),
                row("ls a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "job", "ls", "--no-tick"),
                row("show an unknown id", queue(), 2, "no job 42", "job", "show", "--no-tick", "42"),
                row("show a non-numeric id", queue(), 2, "'abc' is not a job id", "job", "show", "--no-tick", "abc"),
                row("show in a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "job", "show", "--no-tick", "1"),
                row("why an unknown id", queue(), 2, "no job 42", "job", "why", "--no-tick", "42"),
                row("why in a garbage queue.db", garbageDatabase(), 1, "queue.db", "job", "why", "--no-tick", "1"),
                row("logs an unknown id", queue(), 2, "no job 42", "job", "logs", "--no-tick", "42"),
                row("logs -n x", queue(), 2, "--lines", "job", "logs", "--no-tick", "-n", "x", "1"),
                row("logs --offset -5", queue(), 2, "--offset", "job", "logs", "--no-tick", "--offset", "-5", "1"),
                row("wait an unknown id", queue(), 2, "no job 42", "job", "wait", "--no-tick", "42"),
                row("wait an unknown id, ticking", queue(), 2, "no job 42", "job", "wait", "42"),
                row("wait --timeout -1", queue(), 2, "--timeout", "job", "wait", "--no-tick", "--timeout", "-1", "1"),
                // job cancel, requeue, priority, note, result, purge
                row("cancel a non-numeric id", queue(), 2, "'abc' is not a job id", "job", "cancel", "--no-tick", "abc"),
                row("cancel an unknown id", queue(), 2, "no job 42", "job", "cancel", "--no-tick", "42"),
                row("cancel in a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "job", "cancel", "--no-tick", "1"),
                row("requeue an unknown id", queue(), 2, "no job 42", "job", "requeue", "--no-tick", "42"),
                row("requeue --group without --failed", queue(), 2, "job requeue --group needs --failed", "job", "requeue",
                        "--no-tick", "--group", "g"),
                row("priority +x", queue(), 2, "priority must be a number", "job", "priority", "--no-tick", "1", "+x"),
                row("priority of an unknown id", queue(), 2, "no job 42", "job", "priority", "--no-tick", "42", "5"),
                row("note an unknown id", queue(), 2, "no job 42", "job", "note", "--no-tick", "42", "hello"),
                row("note a non-UTF-8 text", queue(), 2, "not valid UTF-8", "job", "note", "--no-tick", "1", "a\uFFFD"),
                row("note an oversized text", queue(), 2, "a note holds at most 65536", "job", "note", "--no-tick", "1", "n".repeat(2 * 1024 * 1024)),
                row("result --set a list", queue(), 2, "--set takes one JSON object", "job", "result", "--no-tick", "1",
                        "--set", "[1,2]"),
                row("note --append past the limit", queue(), 2, "a note holds at most 65536", "job", "note", "--no-tick", "2",
                        "--append", "n".repeat(65_535)),
                row("note a NUL byte", queue(), 2, "NUL", "job", "note", "--no-tick", "1", "a\0b"),
                row("result --set an oversized object", queue(), 2, "a result holds at most 1048576", "job", "result", "--no-tick", "1",
                        "--set", "{\"a\":\"" + BIG + "\"}"),
                row("result of an unknown id", queue(), 2, "no job 42", "job", "result", "--no-tick", "42"),
                row("purge --state running", queue(), 2, "only finished jobs", "job", "purge", "--no-tick", "--state", "running"),
                row("purge --state bogus", queue(), 2, "bogus", "job", "purge", "--no-tick", "--state", "bogus"),
                row("purge in a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "job", "purge", "--no-tick",
                        "--state", "cancelled"),
                // queue
                row("queue without a terminal", queue(), 2, "the queue screen needs a terminal", "queue"),
                row("queue frobnicate", queue(), 2, "frobnicate", "queue", "frobnicate"),
                row("queue tui --refresh 0", queue(), 2, "--refresh must be 1", "queue", "tui", "--refresh", "0"),
                row("status --recent x", queue(), 2, "--recent", "queue", "status", "--no-tick", "--recent", "x"),
                row("status of a garbage queue.db", garbageDatabase(), 1, "queue.db", "queue", "status", "--no-tick"),
                row("status of a queue.db with damaged pages", damagedPages(), 1, "queue.db", "queue", "status", "--no-tick"),
                row("status with an unknown queue.yml key", queueWith("queue.yml", "queue:\n  local_node_name: here\n  colour: red\n"),
                        2, "unknown key 'colour'", "queue", "status", "--no-tick"),
                row("nodes of a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "nodes", "--no-tick"),
                row("alerts --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "alerts", "--bogus"),
                row("alerts of a garbage queue.db", garbageDatabase(), 1, "queue.db", "queue", "alerts", "--no-tick"),
                row("ack an unknown alert", queue(), 2, "99", "queue", "ack", "--no-tick", "99"),
                row("ack a non-numeric id", queue(), 2, "abc", "queue", "ack", "--no-tick", "abc"),
                row("tick a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "tick"),
                row("tick with a 2 MiB queue.yml", queueWith("queue.yml", "#" + BIG), 2, "too large for a config file",
                        "queue", "tick"),
                row("daemon --interval 0", queue(), 2, "--interval", "queue", "daemon", "--interval", "0"),
                row("daemon on a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "daemon", "--once"),
                row("backup into a missing folder", queue(), 2, "no/such", "queue", "backup", "--no-tick",
                        "{home}/no/such/backup.db"),
                row("backup --keep -1", queue(), 2, "--keep", "queue", "backup", "--no-tick", "--keep", "-1"),
                row("backup of a garbage queue.db", garbageDatabase(), 1, "queue.db", "queue", "backup", "--no-tick",
                        "{home}/backup.db"),
                row("gc of a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "gc", "--no-tick"),
                row("keeper --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "--bogus"),
                row("keeper install --interval 0", queue(), 2, "--interval", "queue", "keeper", "install", "--interval", "0"),
                row("keeper start --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "start", "--bogus"),
                row("keeper ensure --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "ensure", "--bogus"),
                row("keeper stop --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "stop", "--bogus"),
                row("keeper restart --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "restart", "--bogus"),
                row("keeper status --bogus", queue(), 2, "Unknown option: '--bogus'", "queue", "keeper", "status", "--bogus"),
                row("keeper logs -n x", queue(), 2, "-n", "queue", "keeper", "logs", "-n", "x"),
                row("events --since yesterday", queue(), 2, "--since", "queue", "events", "--no-tick", "--since", "yesterday"),
                row("events --job abc", queue(), 2, "abc", "queue", "events", "--no-tick", "--job", "abc"),
                row("events of a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "events", "--no-tick"),
                row("drain an unknown node", queue(), 2, "no node named 'elsewhere'", "queue", "drain", "--no-tick", "elsewhere"),
                row("resume an unknown node", queue(), 2, "no node named 'elsewhere'", "queue", "resume", "--no-tick", "elsewhere"),
                row("ignore an unknown node", queue(), 2, "elsewhere", "queue", "ignore", "--no-tick", "elsewhere"),
                row("unignore an unknown node", queue(), 2, "elsewhere", "queue", "unignore", "--no-tick", "elsewhere"),
                row("drain in a newer queue.db", newerDatabase(), 1, "written by a newer nvidb", "queue", "drain", "--no-tick", "here"),
                row("groups of a garbage queue.db", garbageDatabase(), 1, "queue.db", "queue", "groups", "--no-tick"),
                row("release an unknown group", queue(), 2, "no group nope", "queue", "release-group", "--no-tick", "nope"),
                // help, completion, the hidden warm-up
                row("help for an unknown command", empty(), 2, "frobnicate", "help", "frobnicate"),
                row("completion for fish", empty(), 2, "fish", "completion", "fish"),
                row("__warmup --bogus", empty(), 2, "Unknown option: '--bogus'", "__warmup", "--bogus"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void isOneClearLineAndChangesNothing(BadInputCase row) throws Exception {
        Path dir = Files.createDirectories(home.resolve(".nvidb"));
        row.setup().prepare(dir, template);
        Map<String, String> env = Map.of("HOME", home.toString(), "NVIDB_HOME", dir.toString());
        Path db = dir.resolve("queue.db");
        Path logical = row.setup().healthyDatabase() ? db : null;
        HomeSnapshot before = HomeSnapshot.of(home, logical);

        String[] args = row.argsIn(home);
        CliRun plain = CliRun.run(env, args);
        assertOneClearLine(row, plain);
        assertEquals("", plain.stdout(), row + ": stdout carries data only");

        String[] withJson = withJson(args);
        if (withJson != null) {
            // With --json an earlier check may answer first (queue tui: "no JSON form"); the
            // envelope says what the line says.
            CliRun json = CliRun.run(env, withJson);
            assertOneClearLine(row, json, "");
            assertOneEnvelope(row, json.stdout(), json.stderr().lines().findFirst().orElseThrow());
        }
        HomeSnapshot after = HomeSnapshot.of(home, logical);
        assertEquals("", before.differences(after), row + ": nothing changed");
        assertEquals(before, after, row + ": nothing changed");
    }

    private static void assertOneClearLine(BadInputCase row, CliRun run) {
        assertOneClearLine(row, run, row.message());
    }

    private static void assertOneClearLine(BadInputCase row, CliRun run, String message) {
        String stderr = run.stderr();
        assertEquals(row.exitCode(), run.exitCode(), row + ": " + stderr);
        assertNotEquals(0, run.exitCode());
        for (String trace : List.of("Exception", "\tat ", "Caused by")) {
            assertFalse(stderr.contains(trace) || run.stdout().contains(trace), row + ": no stack trace: " + stderr);
        }
        List<String> lines = stderr.lines().toList();
        assertTrue(lines.size() == 1 || lines.size() == 2 && lines.get(1).startsWith("  hint: "),
                row + ": one line and at most a hint:\n" + stderr);
        assertTrue(lines.get(0).startsWith("nvidb: ") && lines.get(0).contains(message),
                row + ": the line says what: " + stderr);
    }

    private static void assertOneEnvelope(BadInputCase row, String stdout, String line) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        try (JsonParser parser = mapper.createParser(stdout)) {
            JsonNode document = mapper.readTree(parser);
            assertNull(parser.nextToken(), row + ": exactly one document: " + stdout);
            assertFalse(document.get("ok").asBoolean(), stdout);
            assertEquals(line, "nvidb: " + dev.nvidb.output.Printable.lines(document.at("/error/message").asText()),
                    row + ": " + stdout);
        }
    }

    /**
     * The command line with {@code --json} after its command words (before any {@code --}), or
     * null when the command has no {@code --json}.
     */
    private static String[] withJson(String[] args) {
        CommandLine command = Cli.create(new Context(Map.of(), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), false));
        int at = 0;
        while (at < args.length && command.getSubcommands().containsKey(args[at])) {
            command = command.getSubcommands().get(args[at++]);
        }
        if (command.getCommandSpec().findOption("--json") == null) {
            return null;
        }
        List<String> result = new ArrayList<>(Arrays.asList(args).subList(0, at));
        result.add("--json");
        result.addAll(Arrays.asList(args).subList(at, args.length));
        return result.toArray(String[]::new);
    }

    /** The command a row runs: its leading words that name commands, joined ("" for nvidb itself). */
    private static String commandOf(List<String> args) {
        List<String> path = new ArrayList<>();
        List<CommandTree.Branch> level = CommandTree.ROOT;
        for (String arg : args) {
            var next = level.stream().filter(branch -> branch.name().equals(arg)).findFirst();
            if (next.isEmpty()) {
                break;
            }
            path.add(arg);
            level = next.get().children();
        }
        return String.join(" ", path);
    }

    private static void collect(String prefix, List<CommandTree.Branch> branches, Set<String> into) {
        for (CommandTree.Branch branch : branches) {
            String name = prefix.isEmpty() ? branch.name() : prefix + " " + branch.name();
            into.add(name);
            collect(name, branch.children(), into);
        }
    }

    @Test
    void everyCommandHasARow() {
        Set<String> commands = new TreeSet<>();
        commands.add("");
        collect("", CommandTree.ROOT, commands);
        Set<String> covered = table().map(row -> commandOf(row.args())).collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>(commands);
        missing.removeAll(covered);
        assertEquals(Set.of(), missing, "every command of CommandTree needs a row in the bad-input table");
        assertTrue(table().map(BadInputCase::name).distinct().count() == table().count(), "row names are unique");
        assertTrue(table().allMatch(row -> row.exitCode() != 0), "bad input never exits 0");
    }
}
