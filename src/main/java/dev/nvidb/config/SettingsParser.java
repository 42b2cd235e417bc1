package dev.nvidb.config;

import dev.nvidb.model.HostKeyPolicy;
import java.nio.file.Path;

/** Reads the {@code basic:} and {@code view:} sections of {@code config.yml}. */
final class SettingsParser {

    static final String BASIC_HINT = "valid keys: " + String.join(", ", ConfigSchema.BASIC_KEYS)
            + "; see config.example.yml";
    static final String VIEW_HINT = "valid keys: " + String.join(", ", ConfigSchema.VIEW_KEYS)
            + "; see config.example.yml";
    private static final int MAX_TIMEOUT = 3600;

    private SettingsParser() {
    }

    static BasicConfig basic(YamlSection section, NvidbHome home) {
        BasicConfig d = BasicConfig.defaults(home);
        String policy = section.string("host_key_policy", null);
        HostKeyPolicy hostKeyPolicy = policy == null ? d.hostKeyPolicy() : HostKeyPolicy.parse(policy)
                .orElseThrow(() -> section.error(section.value("host_key_policy").orElseThrow(),
                        "'host_key_policy' must be one of " + String.join(", ", HostKeyPolicy.keys()) + ", got "
                                + YamlSection.describe(section.value("host_key_policy").orElseThrow()),
                        "strict refuses unknown hosts; accept-new records a new host's key on first use"));
        return new BasicConfig(
                section.bool("remote", d.remote()),
                section.bool("include_local", d.includeLocal()),
                hostKeyPolicy,
                section.integer("connect_timeout", 1, MAX_TIMEOUT, d.connectTimeout()),
                section.integer("auth_timeout", 1, MAX_TIMEOUT, d.authTimeout()),
                section.integer("command_timeout", 1, MAX_TIMEOUT, d.commandTimeout()),
                path(section, "ssh_config", d.sshConfig(), home),
                path(section, "ssh_system_config", d.sshSystemConfig(), home),
                path(section, "known_hosts", d.knownHosts(), home));
    }

    static ViewConfig view(YamlSection section) {
        String mode = section.string("mode", null);
        ViewMode viewMode = mode == null ? null : ViewMode.parse(mode).orElseThrow(() -> section.error(
                section.value("mode").orElseThrow(), "'mode' must be one of " + String.join(", ", ViewMode.keys())
                        + ", got " + YamlSection.describe(section.value("mode").orElseThrow()), null));
        return new ViewConfig(
                viewMode,
                section.bool("detail", null),
                section.string("sort", null),
                section.string("filter", null),
                section.bool("group", null),
                section.bool("show_unsupported", null),
                section.bool("history", null),
                section.bool("process_pane", null),
                section.bool("mouse", true),
                section.bool("single_line", null));
    }

    static final String LOG_HINT = "valid keys: " + String.join(", ", ConfigSchema.LOG_KEYS) + "; see config.example.yml";

    static LogConfig log(YamlSection section, NvidbHome home) {
        LogConfig d = LogConfig.defaults(home);
        return new LogConfig(
                section.integer("interval", 1, 86_400, d.intervalSeconds()),
                section.integer("retention_days", 0, 36_500, d.retentionDays()),
                path(section, "db_path", d.dbPath(), home));
    }

    /** A path with {@code ~} expanded; an empty value keeps the default. */
    static Path path(YamlSection section, String key, Path fallback, NvidbHome home) {
        String text = section.string(key, null);
        return text == null || text.isBlank() ? fallback : home.expand(text);
    }
}
