package dev.nvidb.config;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

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
                        .map(retention -> retention(base.retention(), retention)).orElse(base.retention()),
                new FailFast(section.integer("group_fail_fast", 0, MAX, base.failFast().count()),
                        section.integer("group_fail_window_seconds", 0, MAX, base.failFast().windowSeconds())),
                section.bool("slurm_overflow", base.slurmOverflow()));
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
        String command = base.command();
        List<String> argv = base.commandArgv();
        if (section.has("command")) {
            Node value = section.value("command").orElseThrow();
            if (value instanceof SequenceNode) {
                argv = hookArgv(section, value);
                command = null;
            } else {
                command = section.string("command", null);
                command = command == null || command.isBlank() ? null : command;
                argv = null;
            }
        }
        boolean shell = section.bool("command_shell", base.commandShell());
        if (shell && argv != null) {
            throw section.error(section.value(section.has("command_shell") ? "command_shell" : "command").orElseThrow(),
                    "'command_shell: true' runs one string through /bin/sh -c, but 'command' is a list",
                    "give command as one string, or drop command_shell to run the list as it is");
        }
        if (command != null && !shell) {
            try {
                if (NotifyConfig.Words.split(command).isEmpty()) {
                    command = null;
                }
            } catch (IllegalArgumentException e) {
                throw section.error(section.value(section.has("command") ? "command" : "command_shell").orElseThrow(),
                        "'command' has " + e.getMessage() + " (it is split into words without a shell)",
                        "close the quote, give the command as a list, or set command_shell: true");
            }
        }
        return new NotifyConfig(section.bool("desktop", base.desktop()), section.bool("log", base.log()),
                command, argv, shell,
                section.integer("command_timeout_seconds", 1, 86_400, base.commandTimeoutSeconds()),
                severity(section, base.minSeverity()));
    }

    private static List<String> hookArgv(YamlSection section, Node value) {
        List<String> argv = new ArrayList<>();
        for (Node item : section.list("command", "command: [\"/usr/local/bin/page-me\", \"--urgent\"]")
                .orElseThrow()) {
            if (!(item instanceof ScalarNode scalar) || YamlSection.isNull(item)) {
                throw section.error(item, "each word of 'command' must be a string, got " + YamlSection.describe(item),
                        "for example command: [\"/usr/local/bin/page-me\", \"--urgent\"]");
            }
            argv.add(scalar.getValue());
        }
        if (!argv.isEmpty() && argv.get(0).isBlank()) {
            throw section.error(value, "'command' must start with a program, got an empty word",
                    "for example command: [\"/usr/local/bin/page-me\", \"--urgent\"]");
        }
        return argv.isEmpty() ? null : argv;
    }

    private static String severity(YamlSection section, String fallback) {
        String text = section.string("min_severity", fallback);
        if (!NotifyConfig.SEVERITIES.contains(text)) {
            throw section.error(section.value("min_severity").orElseThrow(),
                    "'min_severity' must be one of " + String.join(", ", NotifyConfig.SEVERITIES) + ", got "
                            + YamlSection.describe(section.value("min_severity").orElseThrow()),
                    "alerts below it are not delivered on any channel");
        }
        return text;
    }

    private static BackupConfig backup(BackupConfig base, YamlSection section, NvidbHome home) {
        return new BackupConfig(
                section.bool("enabled", base.enabled()),
                section.integer("interval_hours", 1, MAX, base.intervalHours()),
                section.integer("keep", 1, MAX, base.keep()),
                section.has("directory") ? SettingsParser.path(section, "directory", null, home) : base.directory());
    }
}
