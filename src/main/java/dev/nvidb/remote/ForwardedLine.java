package dev.nvidb.remote;

import dev.nvidb.agent.ShellQuote;
import dev.nvidb.config.NvidbHome;
import dev.nvidb.config.RemoteConfig;
import dev.nvidb.error.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which command lines a client with {@code remote:} forwards, and the one shell command that
 * runs a forwarded line on the queue host (pure: no I/O but reading a {@code --script} file).
 *
 * <p>The shell command marks the far side as forwarded ({@link #FORWARDED}: it never forwards
 * again and ends when its SSH session goes away), sets {@code NVIDB_HOME} when configured,
 * exits 127 (no such program) or 126 (not executable) before anything else when the configured
 * nvidb is not there, runs {@code nvidb queue keeper ensure} with stdin from /dev/null and all
 * its output on stderr (its exit code ignored), then {@code exec}s nvidb with every word quoted.
 */
public final class ForwardedLine {

    /** Set on the far side of a forwarded command: it runs there and never forwards again. */
    public static final String FORWARDED = "NVIDB_FORWARDED";

    /** A shell command over SSH is one argument to the far shell; Linux takes at most 128 KiB per argument. */
    static final int MAX_BYTES = 120 * 1024;

    /** Options that may stand before the command words (Cli moves them after). */
    private static final List<String> LEADING = List.of("--json", "--verbose", "--local");

    private ForwardedLine() {
    }

    /** Whether this process is the far side of a forwarded command. */
    public static boolean forwardedHere(java.util.Map<String, String> environment) {
        String value = environment.get(FORWARDED);
        return value != null && !value.isEmpty();
    }

    /** The environment a job run on this machine records: {@code environment} less the mark of a forwarded command. */
    public static java.util.Map<String, String> localEnvironment(java.util.Map<String, String> environment) {
        if (!forwardedHere(environment)) {
            return environment;
        }
        java.util.Map<String, String> local = new java.util.LinkedHashMap<>(environment);
        local.remove(FORWARDED);
        return local;
    }

    /**
     * Whether {@code args} is a queue command a client forwards: its first command word is
     * {@code job} or {@code queue}, and neither {@code --local} nor a help option stands before
     * {@code --} (help is answered here: it is the same CLI).
     */
    public static boolean forwards(List<String> args) {
        List<String> words = words(args);
        if (words.isEmpty() || !(words.get(0).equals("job") || words.get(0).equals("queue"))) {
            return false;
        }
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("--local") || arg.equals("-h") || arg.equals("--help")) {
                return false;
            }
        }
        return true;
    }

    /** Whether the keeper's ensure runs first: not for the keeper's own commands nor the daemon it keeps. */
    static boolean ensuresKeeper(RemoteConfig remote, List<String> args) {
        List<String> words = words(args);
        boolean keeperItself = words.size() >= 2 && words.get(0).equals("queue")
                && (words.get(1).equals("keeper") || words.get(1).equals("daemon"));
        return remote.keeper() == RemoteConfig.Keeper.ENSURE && !keeperItself;
    }

    /**
     * {@code args} with a {@code job submit --script FILE} replaced by the file's contents as the
     * single command word ({@code -- CONTENTS}), which the far side runs exactly as it would run
     * the script: the file is on this machine, not on the queue host.
     */
    public static List<String> shipScript(List<String> args, NvidbHome home) {
        List<String> words = words(args);
        if (words.size() < 2 || !words.get(0).equals("job") || !words.get(1).equals("submit")) {
            return args;
        }
        List<String> result = new ArrayList<>();
        String script = null;
        int at = 0;
        for (; at < args.size(); at++) {
            String arg = args.get(at);
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("--script") && at + 1 < args.size()) {
                script = args.get(++at);
            } else if (arg.startsWith("--script=")) {
                script = arg.substring("--script=".length());
            } else {
                result.add(arg);
            }
        }
        if (script == null) {
            return args;
        }
        if (at < args.size() - 1) {
            throw new UsageException("give either --script FILE or a command, not both");
        }
        result.add("--");
        result.add(readScript(home.expand(script), script));
        return result;
    }

    /** The one shell command that runs {@code args} with the queue host's nvidb. */
    public static String command(RemoteConfig remote, List<String> args) {
        String nvidb = path(remote.nvidb());
        StringBuilder line = new StringBuilder(FORWARDED + "=1; export " + FORWARDED + "; ");
        if (remote.nvidbHome() != null) {
            line.append("NVIDB_HOME=").append(path(remote.nvidbHome())).append("; export NVIDB_HOME; ");
        }
        if (remote.nvidb().contains("/")) {
            line.append("[ -e ").append(nvidb).append(" ] || exit 127; [ -x ").append(nvidb).append(" ] && [ ! -d ")
                    .append(nvidb).append(" ] || exit 126; ");
        } else {
            line.append("command -v ").append(nvidb).append(" >/dev/null 2>&1 || exit 127; ");
        }
        if (ensuresKeeper(remote, args)) {
            line.append(nvidb).append(" queue keeper ensure </dev/null >&2; ");
        }
        line.append("exec ").append(nvidb);
        for (String arg : args) {
            line.append(' ').append(ShellQuote.quote(arg));
        }
        int bytes = line.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new UsageException("the command line forwarded to " + remote.host() + " would be " + (bytes / 1024)
                    + " KiB; a command over SSH can carry at most " + (MAX_BYTES / 1024) + " KiB",
                    "put a long script where the nodes can read it and submit -- sh /path/to/script.sh");
        }
        return line.toString();
    }

    /** A path for the far shell: quoted, with a leading {@code ~/} left to expand to the far home. */
    private static String path(String value) {
        return value.startsWith("~/") ? "\"$HOME\"/" + ShellQuote.quote(value.substring(2)) : ShellQuote.quote(value);
    }

    /** The command words of {@code args}: the words before the first other option, leading shared options skipped. */
    static List<String> words(List<String> args) {
        List<String> words = new ArrayList<>();
        for (String arg : args) {
            if (LEADING.contains(arg)) {
                continue;
            }
            if (arg.startsWith("-")) {
                break;
            }
            words.add(arg);
        }
        return words;
    }

    /**
     * The contents of a {@code --script} file as text: UTF-8 without NUL bytes, else a usage
     * error naming {@code given} (also used when a forwarded submit ships the file's contents).
     */
    public static String readScript(Path file, String given) {
        String script = given;
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == 0) {
                    throw new UsageException("--script " + script + " contains a NUL byte (at byte " + i
                            + "); a shell script cannot", "give a text file; run a binary with -- ./program");
                }
            }
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new UsageException("--script " + script + " is not UTF-8 text",
                    "convert it to UTF-8 (iconv -t UTF-8) and submit again");
        } catch (IOException e) {
            throw new UsageException("cannot read --script " + script + ": " + describe(e),
                    "give the path of a local file whose contents should run on the node");
        }
    }

    private static String describe(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage();
    }
}
