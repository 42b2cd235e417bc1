package dev.nvidb.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The valid keys of every section of {@code config.yml} and {@code queue.yml}, in the order the
 * examples document them. The loader rejects any other key; a test checks that every key here
 * appears in {@code config.example.yml} or {@code queue.example.yml}.
 *
 * @param sections section name (for example {@code "server"} or {@code "queue.notify"}) to its keys
 * @param aliases  alternative spelling to the key it stands for (for example {@code gpu_ids} to {@code gpus})
 */
public record ConfigSchema(Map<String, List<String>> sections, Map<String, String> aliases) {

    /** Top level of {@code config.yml}. */
    public static final String CONFIG_FILE = "config.yml";
    /** Top level of {@code queue.yml}. */
    public static final String QUEUE_FILE = "queue.yml";
    /** Section names used as keys of {@link #sections()}. */
    public static final String BASIC = "basic";
    public static final String SERVER = "server";
    public static final String VIEW = "view";
    public static final String QUEUE = "queue";
    public static final String NOTIFY = "queue.notify";
    public static final String BACKUP = "queue.backup";
    public static final String RETENTION = "queue.retention";
    public static final String REMOTE = "remote";
    public static final String LOG = "log";

    static final List<String> CONFIG_FILE_KEYS = List.of("basic", "servers", "view", "log", "queue");
    static final List<String> QUEUE_FILE_KEYS = List.of("servers", "queue", "remote");
    static final List<String> BASIC_KEYS = List.of("remote", "include_local", "host_key_policy",
            "connect_timeout", "auth_timeout", "command_timeout", "ssh_config", "ssh_system_config", "known_hosts");
    static final List<String> SERVER_KEYS = List.of("hostname", "port", "username", "nickname", "auth",
            "identityfile", "password", "proxyjump", "gpus", "gpu_ids", "kind", "partition", "account", "qos",
            "time_limit", "slurm_bin", "claims_dir");
    static final List<String> VIEW_KEYS = List.of("mode", "detail", "sort", "filter", "group",
            "show_unsupported", "history", "process_pane", "mouse", "single_line");
    static final List<String> QUEUE_KEYS = List.of("include_local", "local_node_name", "tick_min_interval",
            "lease_seconds", "headroom_mb", "max_jobs_per_gpu", "max_cpu_jobs_per_node", "placement",
            "job_root", "kill_grace_seconds", "backoff_max_seconds", "lost_after_seconds", "log_tail_lines", "notify", "backup",
            "retention", "group_fail_fast", "group_fail_window_seconds", "slurm_overflow");
    static final List<String> NOTIFY_KEYS = List.of("desktop", "log", "command", "command_shell",
            "command_timeout_seconds", "min_severity");
    static final List<String> BACKUP_KEYS = List.of("enabled", "interval_hours", "keep", "directory");
    static final List<String> RETENTION_KEYS = List.of("finished_jobs_days", "events_days", "alerts_days",
            "job_dirs_days");
    static final List<String> LOG_KEYS = List.of("interval", "retention_days", "db_path");
    static final List<String> REMOTE_KEYS = List.of("host", "nvidb", "port", "username", "nvidb_home", "keeper");

    public ConfigSchema {
        sections = Collections.unmodifiableMap(new LinkedHashMap<>(sections));
        aliases = Map.copyOf(aliases);
    }

    /** The schema the loader enforces. */
    public static ConfigSchema current() {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        sections.put(CONFIG_FILE, CONFIG_FILE_KEYS);
        sections.put(QUEUE_FILE, QUEUE_FILE_KEYS);
        sections.put(BASIC, BASIC_KEYS);
        sections.put(SERVER, SERVER_KEYS);
        sections.put(VIEW, VIEW_KEYS);
        sections.put(LOG, LOG_KEYS);
        sections.put(QUEUE, QUEUE_KEYS);
        sections.put(NOTIFY, NOTIFY_KEYS);
        sections.put(BACKUP, BACKUP_KEYS);
        sections.put(RETENTION, RETENTION_KEYS);
        sections.put(REMOTE, REMOTE_KEYS);
        return new ConfigSchema(sections, Map.of("gpu_ids", "gpus"));
    }
}
