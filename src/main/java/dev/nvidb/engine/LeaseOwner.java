package dev.nvidb.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Who holds the tick lease, written as the lease row's holder text so that another client can
 * tell a dead holder from a slow one: a random id (what renew and release compare), the host,
 * its boot id and pid namespace, the process id with its start time (clock ticks since boot,
 * so a reused pid is not mistaken for the holder), the lease length it renews to, and the
 * command it runs. The text is {@code nvidb-lease/1 key=value …} with the command last.
 *
 * <p>A holder is <em>provably dead</em> only on this very host and boot (same host name, boot
 * id and pid namespace) when its pid is gone, a zombie, or now a process that started at
 * another time. Anything else, another host included, is respected until the lease expires.
 * queue.db is local to one host (SQLite is never on a network share), so every client of a
 * queue normally is on this host; the other-host case is kept for safety, not relied on.
 *
 * @param id         random per acquisition; the holder text as a whole is compared
 * @param host       the host name, from {@code /proc/sys/kernel/hostname}
 * @param bootId     the boot id, or null where there is none to read
 * @param pidSpace   the pid namespace ({@code /proc/self/ns/pid}), or null
 * @param pid        the holder's process id
 * @param startTicks the process's start time in clock ticks since boot, or null
 * @param lengthMs   the lease length the holder renews to (bounds an expiry from a clock ahead)
 * @param command    what the holder runs, e.g. {@code nvidb job ls}; may be empty
 */
record LeaseOwner(String id, String host, String bootId, String pidSpace, long pid, Long startTicks, long lengthMs,
                  String command) {

    private static final String PREFIX = "nvidb-lease/1 ";
    private static final Path PROC = Path.of("/proc");

    /** This process as a lease holder. */
    static LeaseOwner thisProcess(Duration length, String command) {
        long pid = ProcessHandle.current().pid();
        return new LeaseOwner(UUID.randomUUID().toString(), thisHostName(), thisBootId(), thisPidSpace(), pid, startTicks(pid),
                length.toMillis(), command == null ? "" : command);
    }

    /** The holder text stored in the lease row. */
    String encode() {
        StringBuilder text = new StringBuilder(PREFIX);
        text.append("id=").append(id).append(" host=").append(word(host)).append(" boot=").append(word(bootId))
                .append(" pidns=").append(word(pidSpace)).append(" pid=").append(pid)
                .append(" start=").append(startTicks == null ? "-" : startTicks.toString())
                .append(" length_ms=").append(lengthMs).append(" cmd=").append(command.replace('\n', ' '));
        return text.toString();
    }

    /** The owner written by {@link #encode}; empty for a holder text of another form (an older nvidb's id). */
    static Optional<LeaseOwner> parse(String holder) {
        if (holder == null || !holder.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = holder.substring(PREFIX.length());
        int cmd = rest.indexOf(" cmd=");
        String command = cmd < 0 ? "" : rest.substring(cmd + 5);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : (cmd < 0 ? rest : rest.substring(0, cmd)).split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        try {
            return Optional.of(new LeaseOwner(fields.get("id"), unword(fields.get("host")), unword(fields.get("boot")),
                    unword(fields.get("pidns")), Long.parseLong(fields.get("pid")),
                    "-".equals(fields.get("start")) ? null : Long.valueOf(fields.get("start")),
                    Long.parseLong(fields.get("length_ms")), command));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The lease length the holder renews to. */
    Duration length() {
        return Duration.ofMillis(lengthMs);
    }

    /** True when this owner ran on this host in this boot and pid namespace. */
    boolean onThisHost() {
        return bootId != null && bootId.equals(thisBootId()) && host != null && host.equals(thisHostName())
                && pidSpace != null && pidSpace.equals(thisPidSpace());
    }

    /**
     * True only when the holder certainly no longer runs: same host, boot and pid namespace,
     * and its pid is gone, a zombie, or a process that started at another time.
     */
    boolean provablyDead() {
        if (!onThisHost() || startTicks == null || !Files.isDirectory(PROC.resolve("self"))) {
            return false;
        }
        Optional<String[]> stat = stat(pid);
        if (stat.isEmpty()) {
            return !Files.exists(PROC.resolve(Long.toString(pid)));
        }
        String[] fields = stat.get();
        // fields[0] is the state (after "pid (comm) "), fields[19] the start time.
        return fields[0].equals("Z") || fields[0].equals("X") || !fields[19].equals(startTicks.toString());
    }

    /** "pid 1234 (nvidb job ls)" with the host when it is another one. */
    String describe() {
        String where = onThisHost() ? "" : " on " + host;
        return "pid " + pid + where + (command.isBlank() ? "" : " (" + command + ")");
    }

    private static String word(String value) {
        return value == null || value.isEmpty() ? "-" : value.replace(' ', '_');
    }

    private static String unword(String value) {
        return value == null || value.equals("-") ? null : value;
    }

    static String thisHostName() {
        try {
            return Files.readString(PROC.resolve("sys/kernel/hostname")).strip();
        } catch (IOException e) {
            String name = System.getenv("HOSTNAME");
            return name == null || name.isBlank() ? "localhost" : name;
        }
    }

    static String thisBootId() {
        try {
            return Files.readString(PROC.resolve("sys/kernel/random/boot_id")).strip();
        } catch (IOException e) {
            return null;
        }
    }

    private static String thisPidSpace() {
        try {
            return Files.readSymbolicLink(PROC.resolve("self/ns/pid")).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** A process's start time in clock ticks since boot, or null where /proc cannot tell. */
    static Long startTicks(long pid) {
        return stat(pid).map(fields -> {
            try {
                return Long.valueOf(fields[19]);
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(null);
    }

    /** The fields of /proc/PID/stat after the command name (state first), or empty when there is no such process. */
    private static Optional<String[]> stat(long pid) {
        try {
            String text = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
            int close = text.lastIndexOf(')');
            String[] fields = text.substring(close + 2).strip().split(" ");
            return fields.length > 19 ? Optional.of(fields) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
