package dev.nvidb.alerts;

import dev.nvidb.store.Alert;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code command}: a program that receives the alert as one line of JSON on stdin, with
 * {@code NVIDB_ALERT_ID}, {@code NVIDB_ALERT_KIND} and {@code NVIDB_ALERT_SEVERITY} in its
 * environment. It runs as configured: a list or a string's words as argv, {@code /bin/sh -c}
 * only with {@code command_shell: true}. Exit 0 is delivered; anything else (a non-zero exit,
 * no such program, running past its timeout) is a failed delivery.
 */
public final class CommandChannel implements Channel {

    public static final String NAME = "command";

    private final List<String> argv;
    private final Duration timeout;
    private final Map<String, String> environment;
    private final Path directory;

    /**
     * @param environment variables added to this process's own for the hook (the caller's view of
     *                    the environment; the alert's variables are added on top)
     * @param directory   where the hook runs ({@code $NVIDB_HOME})
     */
    public CommandChannel(List<String> argv, Duration timeout, Map<String, String> environment, Path directory) {
        this.argv = List.copyOf(argv);
        this.timeout = timeout;
        this.environment = Map.copyOf(environment);
        this.directory = directory;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public void deliver(Alert alert, String document) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(environment);
        env.put("NVIDB_ALERT_ID", String.valueOf(alert.id()));
        env.put("NVIDB_ALERT_KIND", alert.kind());
        env.put("NVIDB_ALERT_SEVERITY", alert.severity());
        Hook.run(argv, env, directory, (document + "\n").getBytes(StandardCharsets.UTF_8), timeout);
    }
}
