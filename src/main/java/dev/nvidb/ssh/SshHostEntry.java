package dev.nvidb.ssh;

import java.util.List;

/**
 * One {@code Host} alias from an ssh config file with the settings nvidb cares about, as
 * written ({@code ~} and {@code %} tokens unexpanded). Absent settings are null.
 */
public record SshHostEntry(
        String alias,
        String hostName,
        String user,
        Integer port,
        List<String> identityFiles,
        String proxyJump) {

    public SshHostEntry {
        identityFiles = List.copyOf(identityFiles);
    }
}
