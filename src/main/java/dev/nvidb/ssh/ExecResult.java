package dev.nvidb.ssh;

import java.nio.charset.StandardCharsets;

/**
 * What a remote command left behind.
 *
 * @param exitStatus the exit status, or null when the command was killed by a signal or the channel closed without one
 * @param exitSignal the signal that ended it ({@code KILL}, {@code TERM}, ...), or null
 * @param stdout     everything it wrote to standard output
 * @param stderr     everything it wrote to standard error
 */
public record ExecResult(Integer exitStatus, String exitSignal, byte[] stdout, byte[] stderr) {

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "ExecResult[exitStatus=" + exitStatus + ", exitSignal=" + exitSignal
                + ", stdout=" + stdout.length + " bytes, stderr=" + stderr.length + " bytes]";
    }
}
