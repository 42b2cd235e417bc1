package dev.nvidb.integration;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.LatencyRelay;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fault campaign's cluster: three real OpenSSH nodes ({@link OpenSshHost}, users
 * {@code nvidbt60..62} on 127.0.0.61..63) with four idle fake H100s each; {@code fc-2} is reached
 * only through a {@link LatencyRelay} (so the campaign can stall it or cut its connections), and
 * {@code fc-3}'s job root is a small tmpfs the campaign fills. Lays out the client home
 * (key, ssh config, known_hosts) and a {@code queue.yml} that lists the servers and sets nothing
 * else: the queue runs with its shipped defaults.
 */
final class FaultNodes implements AutoCloseable {

    static final List<String> NAMES = List.of("fc-1", "fc-2", "fc-3");
    /** Where every job appends one line per start: a file per job, named by the job's name. */
    static final Path STARTS = OpenSshHost.SHARED.resolve("faults-starts");
    private static final String TMPFS_SIZE = "16m";

    final Path home;
    final List<OpenSshHost> hosts = new ArrayList<>();
    final LatencyRelay relay;
    /** fc-3's job root: a tmpfs of {@value #TMPFS_SIZE}. */
    final Path smallJobRoot;

    private FaultNodes(Path home, LatencyRelay relay, Path smallJobRoot) {
        this.home = home;
        this.relay = relay;
        this.smallJobRoot = smallJobRoot;
    }

    static FaultNodes start(Path work, int jobs) throws IOException, InterruptedException {
        Prerequisites.requireOpenSsh();
        Path home = work.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        List<OpenSshHost> started = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            OpenSshHost host = OpenSshHost.start("fc-" + i, "127.0.0." + (60 + i), "nvidbt" + (59 + i), work, key, fake, true);
            started.add(host);
            unmount(host.home().resolve(".nvidb/jobs"));
            // jobs of earlier runs: a fresh queue starts at job 1 and must not meet their directories
            OpenSshHost.run("rm", "-rf", host.home().resolve(".nvidb").toString());
            FakeGpuState state = FakeGpuState.create().driver("550.54.14");
            for (int gpu = 0; gpu < 4; gpu++) {
                state.gpu(gpu, "NVIDIA H100 80GB HBM3", 81559).uuid(gpu, "GPU-" + host.name() + "-" + gpu).used(gpu, 0);
            }
            state.writeTo(host.gpuStateFile());
        }
        OpenSshHost second = started.get(1);
        LatencyRelay relay = LatencyRelay.start(new InetSocketAddress(second.address(), second.port()), Duration.ZERO);
        Path smallRoot = mountSmallJobRoot(started.get(2));
        FaultNodes nodes = new FaultNodes(home, relay, smallRoot);
        nodes.hosts.addAll(started);
        nodes.writeClientFiles(key.getParent());
        prepareStarts(jobs);
        return nodes;
    }

    /** The environment of every client process the campaign runs; {@code marker} finds them in /proc. */
    Map<String, String> environment(String marker) {
        Map<String, String> env = new java.util.HashMap<>(Launcher.localEnvironment(home));
        env.put(FaultProcesses.MARKER, marker);
        return env;
    }

    OpenSshHost host(String name) {
        return hosts.get(NAMES.indexOf(name));
    }

    /** fc-2's launch ledger, whose new entries mark a launch under way. */
    Path relayLedger() {
        return host("fc-2").home().resolve(".nvidb/jobs/.launched");
    }

    /** Writes zeros into the small job root until it is full; returns the file. */
    Path fillSmallJobRoot() throws IOException {
        Path filler = smallJobRoot.resolve("filler");
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // "No space left on device": what the campaign wanted
        }
        try (OutputStream out = Files.newOutputStream(filler, StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
            }
        } catch (IOException full) {
            // the last bytes of the last page
        }
        return filler;
    }

    void freeSmallJobRoot() throws IOException {
        Files.deleteIfExists(smallJobRoot.resolve("filler"));
    }

    private void writeClientFiles(Path ssh) throws IOException {
        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        StringBuilder servers = new StringBuilder("servers:\n");
        for (OpenSshHost host : hosts) {
            boolean relayed = host.name().equals("fc-2");
            String address = relayed ? "127.0.0.1" : host.address();
            int port = relayed ? relay.port() : host.port();
            config.append("Host ").append(host.name()).append("\n  HostName ").append(address)
                    .append("\n  Port ").append(port).append("\n  User ").append(host.username()).append('\n');
            String[] keyParts = host.hostPublicKey().split(" ");
            known.append("[").append(address).append("]:").append(port).append(' ')
                    .append(keyParts[0]).append(' ').append(keyParts[1]).append('\n');
            servers.append("  - hostname: ").append(host.name()).append('\n');
        }
        Files.writeString(ssh.resolve("config"), config.toString());
        Files.writeString(ssh.resolve("known_hosts"), known.toString());
        Path nvidb = Files.createDirectories(home.resolve(".nvidb"));
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(nvidb.resolve("queue.yml"), servers.toString());
    }

    private static Path mountSmallJobRoot(OpenSshHost host) throws IOException, InterruptedException {
        Path dotNvidb = Files.createDirectories(host.home().resolve(".nvidb"));
        Path root = Files.createDirectories(dotNvidb.resolve("jobs"));
        String uid = output("id", "-u", host.username());
        String gid = output("id", "-g", host.username());
        OpenSshHost.run("mount", "-t", "tmpfs", "-o", "size=" + TMPFS_SIZE + ",mode=0700,uid=" + uid + ",gid=" + gid,
                "tmpfs", root.toString());
        if (!Files.readString(Path.of("/proc/mounts")).contains(" " + root + " tmpfs ")) {
            throw new IOException("tmpfs not mounted on " + root);
        }
        OpenSshHost.run("chown", host.username() + ":", dotNvidb.toString());
        Files.setPosixFilePermissions(dotNvidb, PosixFilePermissions.fromString("rwx------"));
        return root;
    }

    private static void prepareStarts(int jobs) throws IOException, InterruptedException {
        OpenSshHost.run("rm", "-rf", STARTS.toString());
        Files.createDirectories(STARTS);
        Files.setPosixFilePermissions(STARTS, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (int job = 0; job < jobs; job++) {
            Path file = Files.createFile(STARTS.resolve(FaultWorkload.name(job)));
            // every node's user appends to it: a retry may run on another node
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        }
    }

    private static void unmount(Path root) throws IOException, InterruptedException {
        while (Files.readString(Path.of("/proc/mounts")).contains(" " + root + " ")) {
            OpenSshHost.run("umount", "-l", root.toString());
        }
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes()).strip();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + text);
        }
        return text;
    }

    @Override
    public void close() {
        relay.close();
        hosts.forEach(OpenSshHost::close);
        try {
            unmount(smallJobRoot);
        } catch (IOException | InterruptedException e) {
            System.err.println("fault campaign: cannot unmount " + smallJobRoot + ": " + e.getMessage());
        }
    }
}
