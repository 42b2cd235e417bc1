package dev.nvidb.keeper;

import dev.nvidb.error.UsageException;
import java.nio.file.Path;

/**
 * The text of the user unit {@code nvidb-queue.service}: {@code queue daemon} with absolute
 * paths, {@code NVIDB_HOME} fixed, restarted always (no start limit), wanted by
 * {@code default.target}. Pure. Values are quoted for systemd: {@code "} and {@code \} escaped,
 * {@code %} doubled (specifiers), {@code $} doubled where systemd would expand it.
 */
final class SystemdUnit {

    /** Seconds systemd waits before starting a stopped daemon again. */
    static final int RESTART_SECONDS = 5;

    private SystemdUnit() {
    }

    static String render(Path launcher, Path home, String interval, Path java) {
        StringBuilder unit = new StringBuilder();
        unit.append("# nvidb queue keeper for NVIDB_HOME=").append(home.toString().replace("\n", " ")).append('\n');
        unit.append("# Written by `nvidb queue keeper install --systemd` (which rewrites it). To start it at boot,\n");
        unit.append("# before you log in, the host must let your user manager linger: loginctl enable-linger \"$USER\"\n");
        unit.append("[Unit]\n");
        unit.append("Description=nvidb queue daemon for ").append(home.toString().replace("%", "%%")).append('\n');
        unit.append("StartLimitIntervalSec=0\n\n");
        unit.append("[Service]\n");
        unit.append("Type=simple\n");
        unit.append("Environment=").append(quoted(NVIDB_HOME_IS + home, false)).append('\n');
        if (java != null) {
            unit.append("Environment=").append(quoted("JAVA=" + java, false)).append('\n');
        }
        unit.append("ExecStart=").append(quoted(launcher.toString(), true)).append(" queue daemon --local --interval ")
                .append(quoted(interval, true)).append('\n');
        unit.append("Restart=always\n");
        unit.append("RestartSec=").append(RESTART_SECONDS).append('\n');
        unit.append("\n[Install]\n");
        unit.append("WantedBy=default.target\n");
        return unit.toString();
    }

    private static final String NVIDB_HOME_IS = "NVIDB_HOME=";

    /** The Environment line a unit written for {@code home} carries: how a unit is told to be ours. */
    static String homeLine(Path home) {
        return "Environment=" + quoted(NVIDB_HOME_IS + home, false);
    }

    static String quoted(String value, boolean dollar) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new UsageException("cannot write a systemd unit for a path with a line break: " + value.strip(),
                    "use the shell keeper, or a path without line breaks");
        }
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%");
        if (dollar) {
            escaped = escaped.replace("$", "$$");
        }
        return "\"" + escaped + "\"";
    }
}
