package dev.nvidb.alerts;

import dev.nvidb.store.Alert;
import java.io.IOException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code desktop}: a desktop notification through {@code notify-send} (Linux) or
 * {@code osascript} (macOS), whichever is on {@code PATH}. Neither there is a failed delivery
 * saying so (reported while the channel is on, retried with back-off like any failure).
 */
public final class DesktopChannel implements Channel {

    public static final String NAME = "desktop";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, String> environment;

    /** @param environment the caller's environment: its {@code PATH} is searched */
    public DesktopChannel(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Duration timeout() {
        return TIMEOUT;
    }

    @Override
    public void deliver(Alert alert, String document) throws IOException {
        String title = "nvidb: " + plain(alert.kind()) + (alert.jobId() == null ? "" : " (job " + alert.jobId() + ")");
        String body = plain(alert.message());
        Optional<Path> notifySend = onPath("notify-send");
        List<String> argv;
        if (notifySend.isPresent()) {
            String urgency = switch (alert.severity()) {
                case "error" -> "critical";
                case "warning" -> "normal";
                default -> "low";
            };
            argv = List.of(notifySend.get().toString(), "--app-name=nvidb", "--urgency=" + urgency, title, body);
        } else {
            Path osascript = onPath("osascript").orElseThrow(() -> new IOException(
                    "no notify-send or osascript on PATH; install libnotify-bin or set desktop: false"));
            argv = List.of(osascript.toString(), "-e", "on run argv", "-e",
                    "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run", title, body);
        }
        Hook.run(argv, Map.of("NVIDB_ALERT_ID", String.valueOf(alert.id())), null, new byte[0], TIMEOUT);
    }

    private Optional<Path> onPath(String program) {
        String path = environment.get("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static String plain(String text) {
        return text.codePoints().map(c -> Character.isISOControl(c) ? ' ' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }
}
