package dev.nvidb.integration;

import dev.nvidb.testing.Prerequisite;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the integration suite needs from the machine: root, Debian's sshd, ssh-keygen, tmux, Chromium.
 * Outside CI a missing piece skips the suite with the reason; in CI ({@code CI=true}) it
 * fails ({@link Prerequisite}).
 */
final class Prerequisites {

    private Prerequisites() {
    }

    static void requireOpenSsh() {
        require(Files.isExecutable(Path.of("/usr/sbin/sshd")), "OpenSSH server missing: apt-get install openssh-server");
        require("root".equals(System.getProperty("user.name")),
                "the OpenSSH suite starts sshd and creates test users, so it must run as root");
    }

    static void requireSlurm() {
        require(SlurmCluster.installed(),
                "Slurm missing: apt-get install slurmctld slurmd slurm-client munge (.ci/run does)");
    }

    static void requireTmux() {
        require(Files.isExecutable(Path.of("/usr/bin/tmux")), "tmux missing: apt-get install tmux");
    }

    static void requireChromium() {
        require(Files.isExecutable(Chromium.BINARY), "Chromium missing: apt-get install chromium");
    }

    private static void require(boolean present, String why) {
        Prerequisite.require(present, why);
    }
}
