package dev.nvidb.integration;

import dev.nvidb.testing.FakeGpuState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts real OpenSSH nodes (Debian's sshd, as {@link OpenSshHost} runs them for the
 * integration suite) with four idle fake H100s each, for bench/submit-openssh.sh, and keeps them
 * up until standard input closes. Usage: {@code OpenSshBenchNodes DIR COUNT}. Writes a client
 * home under {@code DIR/home}: {@code .ssh} (key, config aliases {@code node1..}, known_hosts)
 * and {@code .nvidb/queue.yml} listing the nodes as queue servers and nothing else, so the
 * queue runs with its shipped defaults. Prints {@code ready} when every node accepts
 * connections. Needs root; the login users are {@code nvidbt30..}, addresses 127.0.0.51...
 * Not a test: a main on the test class path, next to the harness it uses.
 */
public final class OpenSshBenchNodes {

    private OpenSshBenchNodes() {
    }

    /**
     * Starts bench node {@code i} ({@code node<i>}, user {@code nvidbt<29+i>} on {@code 127.0.0.<50+i>})
     * with four idle fake H100s and no job directories left from earlier runs (a fresh queue
     * starts at job 1 and must not meet them).
     */
    static OpenSshHost startIdleNode(int i, Path dir, Path key, Path fake) throws java.io.IOException, InterruptedException {
        OpenSshHost host = OpenSshHost.start("node" + i, "127.0.0." + (50 + i), "nvidbt" + (29 + i), dir, key, fake, true);
        OpenSshHost.run("rm", "-rf", host.home().resolve(".nvidb").toString());
        FakeGpuState state = FakeGpuState.create().driver("550.54.14");
        for (int gpu = 0; gpu < 4; gpu++) {
            state.gpu(gpu, "NVIDIA H100 80GB HBM3", 81559).uuid(gpu, "GPU-" + host.name() + "-" + gpu).used(gpu, 0);
        }
        state.writeTo(host.gpuStateFile());
        return host;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]).toAbsolutePath();
        int count = Integer.parseInt(args[1]);
        if (count < 1 || count > 9) {
            throw new IllegalArgumentException("COUNT must be 1..9");
        }
        Path home = dir.resolve("home");
        Path key = OpenSshHost.clientHome(home);
        Path fake = Path.of(System.getProperty("nvidb.fake.nvml.dir"));
        List<OpenSshHost> hosts = new ArrayList<>();
        try {
            StringBuilder config = new StringBuilder();
            StringBuilder known = new StringBuilder();
            StringBuilder servers = new StringBuilder("servers:\n");
            for (int i = 1; i <= count; i++) {
                String user = "nvidbt" + (29 + i);
                OpenSshHost host = startIdleNode(i, dir, key, fake);
                hosts.add(host);
                config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                        .append("\n  Port ").append(host.port()).append("\n  User ").append(user).append('\n');
                known.append(host.knownHostsLine()).append('\n');
                servers.append("  - hostname: ").append(host.name()).append('\n');
            }
            Files.writeString(key.getParent().resolve("config"), config.toString());
            Files.writeString(key.getParent().resolve("known_hosts"), known.toString());
            Files.createDirectories(home.resolve(".nvidb"));
            Files.writeString(home.resolve(".nvidb/queue.yml"), servers.toString());
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // keep serving until the caller closes our input
            }
        } finally {
            hosts.forEach(OpenSshHost::close);
        }
    }
}
