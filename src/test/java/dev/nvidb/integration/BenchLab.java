package dev.nvidb.integration;

import dev.nvidb.testing.LatencyRelay;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The lab {@code bench/run} measures against: real OpenSSH nodes ({@link OpenSshHost}: Debian's
 * sshd as a child, one login user each, four idle fake H100s), a hung node (accepts TCP, never
 * says a word) and a {@link LatencyRelay} in front of some nodes, so a home can reach a node
 * across a simulated network. Aliases: {@code node1..N}, {@code hung}, {@code far1..M} (node K
 * through relay K). Needs root. Users {@code nvidbt30..}, addresses {@code 127.0.0.51..}.
 */
final class BenchLab implements AutoCloseable {

    private final Path key;
    private final List<OpenSshHost> hosts;
    private final List<LatencyRelay> relays;
    private final ServerSocket hung;
    private final List<Socket> hungConnections = new CopyOnWriteArrayList<>();

    private BenchLab(Path key, List<OpenSshHost> hosts, List<LatencyRelay> relays, ServerSocket hung) {
        this.key = key;
        this.hosts = hosts;
        this.relays = relays;
        this.hung = hung;
        Thread acceptor = new Thread(this::acceptHung, "bench-hung");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts {@code nodes} OpenSSH nodes (at most 8), the hung node and {@code relayed} relays (round trip 0). */
    static BenchLab start(Path work, int nodes, int relayed, Path fakeNvml) throws IOException, InterruptedException {
        if (nodes < 1 || nodes > 8 || relayed > nodes) {
            throw new IllegalArgumentException("1..8 nodes, at most one relay per node");
        }
        Path key = OpenSshHost.clientHome(work.resolve("lab-client"));
        List<OpenSshHost> hosts = new ArrayList<>();
        List<LatencyRelay> relays = new ArrayList<>();
        ServerSocket hung = new ServerSocket();
        try {
            for (int i = 1; i <= nodes; i++) {
                hosts.add(OpenSshBenchNodes.startIdleNode(i, work, key, fakeNvml));
            }
            for (int i = 0; i < relayed; i++) {
                OpenSshHost host = hosts.get(i);
                relays.add(LatencyRelay.start(new InetSocketAddress(host.address(), host.port()), Duration.ZERO));
            }
            hung.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.59"), 0), 50);
        } catch (IOException | InterruptedException | RuntimeException e) {
            hosts.forEach(OpenSshHost::close);
            relays.forEach(LatencyRelay::close);
            hung.close();
            throw e;
        }
        return new BenchLab(key, hosts, relays, hung);
    }

    /** The client key every node accepts ({@code id_ed25519}; its {@code .pub} beside it). */
    Path key() {
        return key.resolveSibling("id_ed25519");
    }

    /** Every alias in one {@code ~/.ssh/config}. */
    String sshConfig() {
        StringBuilder config = new StringBuilder();
        for (OpenSshHost host : hosts) {
            config.append("Host ").append(host.name()).append("\n  HostName ").append(host.address())
                    .append("\n  Port ").append(host.port()).append("\n  User ").append(host.username()).append('\n');
        }
        for (int i = 0; i < relays.size(); i++) {
            config.append("Host far").append(i + 1).append("\n  HostName 127.0.0.1\n  Port ").append(relays.get(i).port())
                    .append("\n  User ").append(hosts.get(i).username()).append('\n');
        }
        config.append("Host hung\n  HostName 127.0.0.59\n  Port ").append(hung.getLocalPort()).append("\n  User nobody\n");
        return config.toString();
    }

    /** Every node's host key, under its own address and under its relay's. */
    String knownHosts() throws IOException {
        StringBuilder known = new StringBuilder();
        for (OpenSshHost host : hosts) {
            known.append(host.knownHostsLine()).append('\n');
        }
        for (int i = 0; i < relays.size(); i++) {
            String[] parts = hosts.get(i).hostPublicKey().split(" ");
            known.append("[127.0.0.1]:").append(relays.get(i).port()).append(' ').append(parts[0]).append(' ')
                    .append(parts[1]).append('\n');
        }
        return known.toString();
    }

    /** The node called {@code node<number>} (1-based). */
    OpenSshHost host(int number) {
        return hosts.get(number - 1);
    }

    /** Sets every relay's added round trip. */
    void roundTrip(Duration roundTrip) {
        relays.forEach(relay -> relay.roundTrip(roundTrip));
    }

    List<LatencyRelay> relays() {
        return relays;
    }

    private void acceptHung() {
        while (!hung.isClosed()) {
            try {
                hungConnections.add(hung.accept());   // held open, never answered
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        relays.forEach(LatencyRelay::close);
        try {
            hung.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : hungConnections) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        hosts.forEach(OpenSshHost::close);
    }
}
