package dev.nvidb.keeper;

import dev.nvidb.error.NodeException;
import dev.nvidb.error.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The systemd keeper: the user unit {@code nvidb-queue.service}, driven with
 * {@code systemctl --user} and read with {@code journalctl --user}. Its cheap state (for
 * {@code queue status}) is a look at the unit's cgroup, nothing forked.
 */
final class SystemdKeeper {

    private static final Duration LIMIT = Duration.ofSeconds(30);
    static final String NO_SESSION = "; the unit is written, but without a user systemd session here (an SSH-only"
            + " account often has none) use the shell keeper: nvidb queue keeper install --start";

    private final KeeperFiles files;
    private final Map<String, String> environment;

    SystemdKeeper(KeeperFiles files, Map<String, String> environment) {
        this.files = files;
        this.environment = environment;
    }

    /** True when the unit is installed for this NVIDB_HOME (a unit of another home is not ours). */
    boolean installed() {
        return unitText().map(text -> text.lines().anyMatch(SystemdUnit.homeLine(files.home())::equals)).orElse(false);
    }

    void install(Path launcher, String interval, Path java) {
        String text = unitText().orElse(null);
        if (text != null && !installed()) {
            String other = text.lines().filter(line -> line.startsWith("Environment=\"NVIDB_HOME=")).findFirst()
                    .orElse("another NVIDB_HOME");
            throw new UsageException(files.unit() + " already keeps another queue (" + other + "); one systemd keeper per user",
                    "use the shell keeper for this NVIDB_HOME: nvidb queue keeper install --start");
        }
        try {
            KeeperFiles.write(files.unit(), SystemdUnit.render(launcher, files.home(), interval, java), "rw-------");
        } catch (IOException e) {
            throw new NodeException("cannot write " + files.unit() + ": " + e.getMessage(), null, e);
        }
    }

    /** {@code systemctl --user daemon-reload} and {@code enable --now}. */
    void enableNow() {
        systemctl("daemon-reload");
        systemctl("enable", "--now", KeeperFiles.UNIT);
    }

    void start() {
        systemctl("start", KeeperFiles.UNIT);
    }

    void stop() {
        systemctl("stop", KeeperFiles.UNIT);
    }

    /** Disables and removes the unit, so that another kind of keeper can take over. */
    void uninstall() {
        Programs.run(environment, List.of("systemctl", "--user", "disable", "--now", KeeperFiles.UNIT), LIMIT);
        try {
            Files.deleteIfExists(files.unit());
        } catch (IOException e) {
            throw new NodeException("cannot remove " + files.unit() + ": " + e.getMessage());
        }
        Programs.run(environment, List.of("systemctl", "--user", "daemon-reload"), LIMIT);
    }

    /** Up when the unit's cgroup holds a process: a few file reads, nothing forked. */
    KeeperState state() {
        Long pid = cgroupPid();
        if (pid == null) {
            return KeeperState.down(KeeperState.Kind.SYSTEMD, files.unit(), null, "nvidb-queue.service is not running");
        }
        return new KeeperState(KeeperState.Kind.SYSTEMD, KeeperState.Condition.UP, null, pid, null, null, null, null,
                null, null, null, files.unit(), null);
    }

    /** What systemd says of the unit ({@code systemctl --user show}). */
    KeeperState status() {
        Programs.Result shown = Programs.run(environment, List.of("systemctl", "--user", "show", "-p",
                "ActiveState,SubState,MainPID,NRestarts,ExecMainStatus", KeeperFiles.UNIT), LIMIT);
        if (!shown.ok()) {
            return KeeperState.down(KeeperState.Kind.SYSTEMD, files.unit(), null,
                    "systemctl --user: " + shown.firstLine());
        }
        Map<String, String> values = new HashMap<>();
        shown.stdout().lines().forEach(line -> {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1));
            }
        });
        boolean active = "active".equals(values.get("ActiveState"));
        Long pid = number(values.get("MainPID"));
        Long restarts = number(values.get("NRestarts"));
        Long status = number(values.get("ExecMainStatus"));
        return new KeeperState(KeeperState.Kind.SYSTEMD, active ? KeeperState.Condition.UP : KeeperState.Condition.DOWN,
                null, pid == null || pid == 0 ? null : pid, null, null, restarts == null ? null : restarts.intValue(),
                null, status == null ? null : status.intValue(), null, null, files.unit(),
                active ? null : "nvidb-queue.service is " + values.get("ActiveState") + " (" + values.get("SubState") + ")");
    }

    List<String> logs(int lines) {
        Programs.Result journal = Programs.run(environment, List.of("journalctl", "--user", "-u", KeeperFiles.UNIT,
                "-n", Integer.toString(lines), "--no-pager", "-o", "short-iso"), LIMIT);
        if (!journal.ok()) {
            throw new NodeException("cannot read the keeper's journal: journalctl --user: " + journal.firstLine());
        }
        List<String> out = new ArrayList<>(Arrays.asList(journal.stdout().split("\n")));
        out.removeIf(String::isEmpty);
        return out;
    }

    Path unit() {
        return files.unit();
    }

    private void systemctl(String... words) {
        List<String> command = new ArrayList<>(List.of("systemctl", "--user"));
        command.addAll(List.of(words));
        Programs.Result result = Programs.run(environment, command, LIMIT);
        if (!result.ok()) {
            throw new NodeException("cannot " + words[0] + " " + KeeperFiles.UNIT + ": systemctl --user " + words[0]
                    + ": " + result.firstLine() + NO_SESSION);
        }
    }

    private java.util.Optional<String> unitText() {
        try {
            return java.util.Optional.of(Files.readString(files.unit(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** The first process of the unit's cgroup (cgroup v2 and v1 layouts, app.slice or not). */
    private static Long cgroupPid() {
        Object uid;
        try {
            uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String user = "user.slice/user-" + uid + ".slice/user@" + uid + ".service/";
        for (String root : List.of("/sys/fs/cgroup/", "/sys/fs/cgroup/systemd/", "/sys/fs/cgroup/unified/")) {
            for (String slice : List.of("app.slice/", "")) {
                Path procs = Path.of(root + user + slice + KeeperFiles.UNIT, "cgroup.procs");
                try {
                    for (String line : Files.readAllLines(procs)) {
                        if (!line.isBlank()) {
                            return Long.parseLong(line.strip());
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // not this layout
                }
            }
        }
        return null;
    }

    private static Long number(String value) {
        try {
            return value == null ? null : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
