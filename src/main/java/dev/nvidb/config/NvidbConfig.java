package dev.nvidb.config;

import java.util.List;
import java.util.Optional;

/**
 * Everything read from {@code config.yml}, {@code queue.yml} and the environment, after precedence
 * is applied. See {@code docs/config.md}.
 *
 * @param home           where the files live
 * @param basic          monitor and SSH settings
 * @param view           saved monitor TUI layout
 * @param monitorServers servers the monitor shows ({@code config.yml servers:})
 * @param queueServers   servers the queue schedules onto ({@code queue.yml servers:} if that key exists, else config.yml's)
 * @param queue          queue settings
 * @param remote         forwarding to a queue host; null when commands run locally
 * @param warnings       one-line problems that did not stop loading (plain-text passwords)
 * @param log            how {@code nvidb log} samples and keeps the GPU history
 */
public record NvidbConfig(
        NvidbHome home,
        BasicConfig basic,
        ViewConfig view,
        List<ServerConfig> monitorServers,
        List<ServerConfig> queueServers,
        QueueConfig queue,
        RemoteConfig remote,
        List<String> warnings,
        LogConfig log) {

    public NvidbConfig {
        monitorServers = List.copyOf(monitorServers);
        queueServers = List.copyOf(queueServers);
        warnings = List.copyOf(warnings);
        log = log == null ? LogConfig.defaults(home) : log;
    }

    /** Defaults only, as if neither file existed. */
    public static NvidbConfig defaults(NvidbHome home) {
        return new NvidbConfig(home, BasicConfig.defaults(home), ViewConfig.defaults(), List.of(), List.of(),
                QueueConfig.defaults(), null, List.of(), LogConfig.defaults(home));
    }

    /** Whether the monitor has remote servers; without any, callers treat the local machine as the only node. */
    public boolean hasServers() {
        return !monitorServers.isEmpty();
    }

    /** Whether the queue has servers; without any, callers treat the local machine as the only node. */
    public boolean hasQueueServers() {
        return !queueServers.isEmpty();
    }

    public Optional<RemoteConfig> findRemote() {
        return Optional.ofNullable(remote);
    }

    /**
     * The job root on this machine as a queue node: {@code job_root}, except that when it is
     * left at its default and {@code NVIDB_HOME} moved the nvidb directory, jobs live under it
     * ({@code $NVIDB_HOME/jobs}), so a second queue on the same account keeps its local jobs
     * apart, like its database.
     */
    public String localJobRoot() {
        boolean defaultRoot = QueueConfig.defaults().jobRoot().equals(queue.jobRoot());
        boolean moved = !home.dir().equals(home.userHome().resolve(".nvidb"));
        return defaultRoot && moved ? home.dir().resolve("jobs").toString() : queue.jobRoot();
    }

    /** The monitor server called {@code name} (nickname, else hostname), if configured. */
    public Optional<ServerConfig> findMonitorServer(String name) {
        return monitorServers.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The queue server called {@code name} (nickname, else hostname), if configured. */
    public Optional<ServerConfig> findQueueServer(String name) {
        return queueServers.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
