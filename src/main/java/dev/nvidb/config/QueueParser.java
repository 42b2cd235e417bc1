package dev.nvidb.config;

/**
 * Reads a {@code queue:} section on top of earlier settings, key by key: a key that is present
 * replaces the earlier value, an absent key keeps it. The same for {@code notify:}, {@code backup:} and
 * {@code retention:}.
 */
final class QueueParser {

    static final String QUEUE_HINT = "valid keys: " + String.join(", ", ConfigSchema.QUEUE_KEYS)
            + "; see queue.example.yml";
    private static final String NOTIFY_HINT = "valid keys: " + String.join(", ", ConfigSchema.NOTIFY_KEYS);
    private static final String BACKUP_HINT = "valid keys: " + String.join(", ", ConfigSchema.BACKUP_KEYS);
    private static final String RETENTION_HINT = "valid keys: " + String.join(", ", ConfigSchema.RETENTION_KEYS)
            + "; days, 0 keeps forever";
    /** The longest retention accepted: 100 years. */
    private static final int MAX_DAYS = 36500;
    private static final int MAX = Integer.MAX_VALUE;

    private QueueParser() {
    }

    static QueueConfig apply(QueueConfig base, YamlSection section, NvidbHome home) {
        String name = base.localNodeName();
        if (section.has("local_node_name")) {
            name = section.string("local_node_name", null);
            ServerParser.checkName(section, "local_node_name", name, "a node name");
        }
        return new QueueConfig(
                section.bool("include_local", base.includeLocal()),
                name,
                section.integer("tick_min_interval", 0, MAX, base.tickMinInterval()),
                section.integer("lease_seconds", 1, MAX, base.leaseSeconds()),
                section.integer("headroom_mb", 0, MAX, base.headroomMb()),
                section.integer("max_jobs_per_gpu", 0, MAX, base.maxJobsPerGpu()),
                section.integer("max_cpu_jobs_per_node", 0, MAX, base.maxCpuJobsPerNode()),
                placement(section, base.placement()),
                jobRoot(section, base.jobRoot()),
                section.integer("kill_grace_seconds", 0, MAX, base.killGraceSeconds()),
                section.integer("backoff_max_seconds", 1, MAX, base.backoffMaxSeconds()),
                section.integer("lost_after_seconds", 0, Integer.MAX_VALUE, base.lostAfterSeconds()),
                section.integer("log_tail_lines", 0, MAX, base.logTailLines()),
                section.section("notify", "in queue.notify", ConfigSchema.NOTIFY_KEYS, NOTIFY_HINT)
                        .map(notify -> notify(base.notifications(), notify)).orElse(base.notifications()),
                section.section("backup", "in queue.backup", ConfigSchema.BACKUP_KEYS, BACKUP_HINT)
                        .map(backup -> backup(base.backup(), backup, home)).orElse(base.backup()),
                section.section("retention", "in queue.retention", ConfigSchema.RETENTION_KEYS, RETENTION_HINT)
                        .map(retention -> retention(base.retention(), retention)).orElse(base.retention()));
    }

    private static RetentionConfig retention(RetentionConfig base, YamlSection section) {
        return new RetentionConfig(
                section.integer("finished_jobs_days", 0, MAX_DAYS, base.finishedJobsDays()),
                section.integer("events_days", 0, MAX_DAYS, base.eventsDays()),
                section.integer("alerts_days", 0, MAX_DAYS, base.alertsDays()),
                section.integer("job_dirs_days", 0, MAX_DAYS, base.jobDirsDays()));
    }

    private static PlacementPolicy placement(YamlSection section, PlacementPolicy fallback) {
        String text = section.string("placement", null);
        if (text == null) {
            return fallback;
        }
        return PlacementPolicy.parse(text).orElseThrow(() -> section.error(section.value("placement").orElseThrow(),
                "'placement' must be one of " + String.join(", ", PlacementPolicy.keys()) + ", got "
                        + YamlSection.describe(section.value("placement").orElseThrow()),
                "spread puts each job on the emptiest card; pack fills one card before the next"));
    }

    private static String jobRoot(YamlSection section, String fallback) {
        String text = section.string("job_root", fallback);
        if (text.isBlank() || text.chars().anyMatch(Character::isISOControl)) {
            throw section.error(section.value("job_root").orElseThrow(),
                    "'job_root' must be a directory path on the node, got \"" + text + "\"", "the default is ~/.nvidb/jobs");
        }
        return text;
    }

    private static NotifyConfig notify(NotifyConfig base, YamlSection section) {
        String command = section.has("command") ? section.string("command", null) : base.command();
        return new NotifyConfig(section.bool("desktop", base.desktop()), section.bool("log", base.log()),
                command == null || command.isBlank() ? null : command);
    }

    private static BackupConfig backup(BackupConfig base, YamlSection section, NvidbHome home) {
        return new BackupConfig(
                section.bool("enabled", base.enabled()),
                section.integer("interval_hours", 1, MAX, base.intervalHours()),
                section.integer("keep", 1, MAX, base.keep()),
                section.has("directory") ? SettingsParser.path(section, "directory", null, home) : base.directory());
    }
}
