package dev.nvidb.integration;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real one-machine Slurm cluster for the tests: Debian's {@code munged}, {@code slurmctld} and
 * {@code slurmd} started as child processes in the foreground ({@code -D}), on ports and
 * directories of their own under one temporary folder, with a small config: this machine as
 * the one node (CPUs from {@code nproc}, two fake GPUs as GRES), one partition, no cgroups
 * ({@code proctrack/linuxproc}, {@code task/none}: the containers here have no systemd) and no
 * accounting (so {@code sacct} answers that accounting is disabled, and the agent relies on
 * {@code squeue}, which keeps ended jobs for {@code MinJobAge}). {@link #close} stops them all.
 */
final class SlurmCluster implements AutoCloseable {

    /** The partition the tests submit to. */
    static final String PARTITION = "nvidbq";

    private final Path dir;
    private final String nodeName;
    private final List<Process> daemons = new ArrayList<>();
    private Process slurmd;

    private SlurmCluster(Path dir, String nodeName) {
        this.dir = dir;
        this.nodeName = nodeName;
    }

    /** Whether Debian's Slurm and munge are installed (.ci/run installs them). */
    static boolean installed() {
        return Files.isExecutable(Path.of("/usr/sbin/slurmctld")) && Files.isExecutable(Path.of("/usr/sbin/slurmd"))
                && Files.isExecutable(Path.of("/usr/sbin/munged")) && Files.isExecutable(Path.of("/usr/bin/sbatch"));
    }

    /** Starts munge, the controller and the node daemon, and waits until the node is idle. */
    static SlurmCluster start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("nvidb-slurm");
        world(dir);
        String host = output("hostname", "-s").strip();
        SlurmCluster cluster = new SlurmCluster(dir, host);
        try {
            cluster.configure(Integer.parseInt(output("nproc").strip()));
            cluster.startDaemons();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The slurm.conf the commands read ({@code SLURM_CONF}). */
    Path conf() {
        return dir.resolve("slurm.conf");
    }

    /** The cluster's folder (world-readable): its config, sockets, logs. */
    Path directory() {
        return dir;
    }

    String nodeName() {
        return nodeName;
    }

    private void configure(int cpus) throws IOException, InterruptedException {
        Path key = Files.createDirectories(dir.resolve("munge-key"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rwx------"));
        OpenSshHost.run("dd", "if=/dev/urandom", "of=" + key.resolve("munge.key"), "bs=1024", "count=1", "status=none");
        Files.setPosixFilePermissions(key.resolve("munge.key"), PosixFilePermissions.fromString("r--------"));
        for (String sub : List.of("run", "log", "state", "spool")) {
            world(Files.createDirectories(dir.resolve(sub)));
        }
        Files.writeString(conf(), String.join("\n",
                "ClusterName=nvidbit",
                "SlurmctldHost=" + nodeName + "(127.0.0.1)",
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "SlurmUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                "AuthInfo=socket=" + dir.resolve("run/munge.sock"),
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "SlurmctldPidFile=" + dir.resolve("run/slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("run/slurmd.pid"),
                "SlurmctldLogFile=" + dir.resolve("log/slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("log/slurmd.log"),
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "JobCompType=jobcomp/none",
                "SchedulerType=sched/builtin",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core_Memory",
                "ReturnToService=2",
                "MinJobAge=3600",
                "KillWait=2",
                "SlurmctldTimeout=10",
                "SlurmdTimeout=10",
                "InactiveLimit=0",
                "MpiDefault=none",
                "GresTypes=gpu",
                "NodeName=" + nodeName + " NodeAddr=127.0.0.1 CPUs=" + cpus + " RealMemory=1000 Gres=gpu:2 State=UNKNOWN",
                "PartitionName=" + PARTITION + " Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
                ""));
        // Two fake GPUs: GRES bound to device files that exist, so Slurm counts and hands them out.
        Files.writeString(dir.resolve("gres.conf"), "AutoDetect=off\nNodeName=" + nodeName
                + " Name=gpu File=/dev/null\nNodeName=" + nodeName + " Name=gpu File=/dev/zero\n");
        world(conf());
        world(dir.resolve("gres.conf"));
    }

    private void startDaemons() throws IOException, InterruptedException {
        daemons.add(daemon("munged", "/usr/sbin/munged", "-F", "--key-file=" + dir.resolve("munge-key/munge.key"),
                "--socket=" + dir.resolve("run/munge.sock"), "--pid-file=" + dir.resolve("munge-key/munged.pid"),
                "--log-file=" + dir.resolve("munge-key/munged.log"), "--seed-file=" + dir.resolve("munge-key/seed")));
        waitFor(() -> Files.exists(dir.resolve("run/munge.sock")), "munged did not create its socket");
        daemons.add(daemon("slurmctld", "/usr/sbin/slurmctld", "-D", "-i", "-f", conf().toString()));
        startSlurmd();
        waitFor(() -> nodeState().startsWith("idle"), "the Slurm node did not become idle");
    }

    /** Starts the node daemon (again, after {@link #stopSlurmd}). */
    void startSlurmd() throws IOException {
        slurmd = daemon("slurmd", "/usr/sbin/slurmd", "-D", "-N", nodeName, "-f", conf().toString());
        daemons.add(slurmd);
    }

    /** Stops the node daemon: the controller marks the node down after {@code SlurmdTimeout}. */
    void stopSlurmd() throws InterruptedException {
        if (slurmd != null) {
            slurmd.destroy();
            slurmd.waitFor(10, TimeUnit.SECONDS);
            slurmd.destroyForcibly();
            slurmd = null;
        }
    }

    /** The node's state as {@code sinfo -N} prints it ({@code idle}, {@code mixed}, {@code down*}, …). */
    String nodeState() {
        try {
            return command("sinfo", "-h", "-N", "-o", "%T").strip();
        } catch (IOException | InterruptedException e) {
            return "unknown: " + e.getMessage();
        }
    }

    /** Runs a Slurm command as root against this cluster and returns its stdout. */
    String command(String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SLURM_CONF", conf().toString());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        return out;
    }

    private Process daemon(String name, String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".out").toFile()));
        builder.environment().put("SLURM_CONF", conf().toString());
        return builder.start();
    }

    /** The daemons' logs, for a failing assertion's message. */
    String logs() {
        StringBuilder text = new StringBuilder();
        for (String name : List.of("log/slurmctld.log", "log/slurmd.log", "slurmctld.out", "slurmd.out")) {
            try {
                List<String> lines = Files.readAllLines(dir.resolve(name));
                text.append("== ").append(name).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())))
                        .append('\n');
            } catch (IOException e) {
                text.append("== ").append(name).append(": ").append(e.getMessage()).append('\n');
            }
        }
        return text.toString();
    }

    private void waitFor(java.util.function.BooleanSupplier condition, String failure)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IOException(failure + "\n" + logs());
            }
            for (Process daemon : daemons) {
                if (!daemon.isAlive()) {
                    throw new IOException(failure + ": a daemon exited (" + daemon.info().command().orElse("?")
                            + ", status " + daemon.exitValue() + ")\n" + logs());
                }
            }
            Thread.sleep(100);
        }
    }

    @Override
    public void close() {
        if (!daemons.isEmpty()) {
            try {
                command("scancel", "-p", PARTITION); // no job step outlives the cluster
            } catch (IOException | InterruptedException e) {
                // the daemons are stopped below either way
            }
        }
        // The node daemon first, then the controller, then munge; each as the child it is.
        for (int i = daemons.size() - 1; i >= 0; i--) {
            Process daemon = daemons.get(i);
            daemon.destroy();
            try {
                if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
                    daemon.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                daemon.destroyForcibly();
            }
        }
        daemons.clear();
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void world(Path path) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
    }
}
