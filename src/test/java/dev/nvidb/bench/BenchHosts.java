package dev.nvidb.bench;

import dev.nvidb.testing.FakeGpuState;
import dev.nvidb.testing.FakeGpuState.ProcessKind;
import dev.nvidb.testing.SshHarness;
import dev.nvidb.testing.TestHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Starts harness SSH hosts with fake GPUs for benchmarks and manual trials, and keeps them up
 * until standard input closes. Usage: {@code BenchHosts DIR COUNT [hung] [queue]}. It writes a
 * client home under {@code DIR/home} (with {@code .ssh} and {@code .nvidb/config.yml} listing the
 * hosts) and prints {@code ready} when the hosts accept connections.
 *
 * <p>{@code hung} adds a node that accepts TCP connections and never answers. {@code queue} also
 * writes {@code .nvidb/queue.yml} making the same hosts the queue's servers, with no local node
 * and {@code tick_min_interval: 0} (every command's tick runs), for bench/queue.sh.
 */
public final class BenchHosts {

    private BenchHosts() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]).toAbsolutePath();
        int count = Integer.parseInt(args[1]);
        List<String> flags = Arrays.asList(args).subList(2, args.length);
        boolean hung = flags.contains("hung");
        boolean queue = flags.contains("queue");
        try (SshHarness harness = new SshHarness()) {
            StringBuilder servers = new StringBuilder("servers:\n");
            for (int i = 1; i <= count; i++) {
                TestHost host = harness.addHost("node" + i);
                FakeGpuState state = FakeGpuState.create().driver("550.54.14");
                for (int gpu = 0; gpu < 4; gpu++) {
                    state.gpu(gpu, "NVIDIA H100 80GB HBM3", 81559).used(gpu, 1024L * gpu).util(gpu, 10 * gpu)
                            .process(gpu, ProcessKind.COMPUTE, 10_000 + gpu, 1000L * gpu + 1);
                }
                state.writeTo(host.gpuStateFile());
                servers.append("  - hostname: node").append(i).append('\n');
            }
            if (hung) {
                harness.hungHost("hung");
                servers.append("  - hostname: hung\n");
            }
            Path home = dir.resolve("home");
            harness.writeClientHome(home);
            Files.createDirectories(home.resolve(".nvidb"));
            Files.writeString(home.resolve(".nvidb/config.yml"),
                    "basic:\n  include_local: false\n  connect_timeout: 2\n" + servers);
            if (queue) {
                Files.writeString(home.resolve(".nvidb/queue.yml"),
                        servers + "queue:\n  include_local: false\n  tick_min_interval: 0\n");
            }
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // keep serving until the caller closes our input
            }
        }
    }
}
