package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Slurm cluster as a queue node, against a real Slurm: Debian's {@code slurmctld}, {@code slurmd}
 * and {@code munge}, started by the test as a one-machine cluster ({@link SlurmCluster}), reached
 * over a real OpenSSH server whose login user submits with {@code sbatch}. The built
 * {@code bin/nvidb} is the client, as a user runs it.
 */
class SlurmIT {

    private static SlurmCluster cluster;
    private static OpenSshHost login;
    private static Path home;

    @BeforeAll
    static void startCluster() throws Exception {
        Prerequisites.requireOpenSsh();
        Prerequisites.requireSlurm();
        cluster = SlurmCluster.start();
        Path work = Files.createTempDirectory("nvidb-slurm-it");
        home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        login = OpenSshHost.start("slurm-login", "127.0.0.91", "nvidbt90", work, key, fake, true,
                Map.of("SLURM_CONF", cluster.conf().toString()));
        Path ssh = key.getParent();
        Files.writeString(ssh.resolve("config"), "Host slurm-login\n  HostName " + login.address() + "\n  Port "
                + login.port() + "\n  User " + login.username() + "\n");
        Files.writeString(ssh.resolve("known_hosts"), login.knownHostsLine() + "\n");
    }

    @AfterAll
    static void stopCluster() {
        if (login != null) {
            login.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theLoginUserSubmitsToTheClusterOverSsh() throws Exception {
        Process ssh = new ProcessBuilder("ssh", "-F", home.resolve(".ssh/config").toString(),
                "-o", "UserKnownHostsFile=" + home.resolve(".ssh/known_hosts"), "-i",
                home.resolve(".ssh/id_ed25519").toString(), "-o", "BatchMode=yes", "slurm-login",
                "sbatch --parsable --wait -p " + SlurmCluster.PARTITION + " --gres=gpu:1 -o /dev/null --wrap 'exit 0'"
                        + " && squeue -h -t all -o %T")
                .redirectErrorStream(true).start();
        String out = new String(ssh.getInputStream().readAllBytes());
        assertEquals(0, ssh.waitFor(), out + cluster.logs());
        assertTrue(out.contains("COMPLETED"), out);
    }
}
