package dev.nvidb.alerts;

import dev.nvidb.config.NotifyConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The channels {@code queue.notify} turns on, in delivery order: log, desktop, command. */
public final class Channels {

    private Channels() {
    }

    /**
     * @param alertsLog   {@code $NVIDB_HOME/alerts.log}
     * @param environment the caller's environment (PATH for the desktop; passed on to the hook)
     */
    public static List<Channel> of(NotifyConfig notify, Path alertsLog, Map<String, String> environment) {
        List<Channel> channels = new ArrayList<>();
        if (notify.log()) {
            channels.add(new LogChannel(alertsLog));
        }
        if (notify.desktop()) {
            channels.add(new DesktopChannel(environment));
        }
        if (notify.hasCommand()) {
            channels.add(new CommandChannel(notify.hookArgv(), Duration.ofSeconds(notify.commandTimeoutSeconds()),
                    environment, alertsLog.toAbsolutePath().getParent()));
        }
        return List.copyOf(channels);
    }
}
