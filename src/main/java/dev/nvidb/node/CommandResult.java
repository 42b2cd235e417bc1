package dev.nvidb.node;

import java.nio.charset.StandardCharsets;

/**
 * What one command on a node returned. {@code exitStatus} is null when the far side reported
 * none (the channel closed on a signal).
 */
public record CommandResult(Integer exitStatus, byte[] stdout, byte[] stderr) {

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }
}
