package dev.nvidb.integration;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH {@code sshd} from Debian, run by the test as a child with {@code -D} on its
 * own loopback address, logging in as its own non-root user whose sessions see the fake NVML
 * library and a private GPU state file. Needs root (to start sshd and create the users).
 */
final class OpenSshHost implements AutoCloseable {

    /** Shared, world-readable place for what the login users must read. */
    static final Path SHARED = Path.of("/var/tmp/nvidb-it");

    private final String name;
    private final String address;
    private final String user;
    private final Path dir;
    private final Path config;
    private final int port;
    private Process sshd;

    private final Path state;

    private OpenSshHost(String name, String address, String user, Path dir, Path config, int port, Path state) {
        this.state = state;
        this.name = name;
        this.address = address;
        this.user = user;
        this.dir = dir;
        this.config = config;
        this.port = port;
    }

    /**
     * Starts a host. {@code withPython=false} gives its sessions a PATH without python3, so the
     * probe must take the nvidia-smi fallback.
     */
    static OpenSshHost start(String name, String address, String user, Path workDir, Path clientPublicKey,
                             Path fakeNvmlDir, boolean withPython) throws IOException, InterruptedException {
        return start(name, address, user, workDir, clientPublicKey, fakeNvmlDir, withPython, java.util.Map.of());
    }

    /** Starts a host whose sessions also get {@code environment} (for example {@code SLURM_CONF}). */
    static OpenSshHost start(String name, String address, String user, Path workDir, Path clientPublicKey,
                             Path fakeNvmlDir, boolean withPython, java.util.Map<String, String> environment)
            throws IOException, InterruptedException {
        return start(name, address, java.util.Map.of(user, clientPublicKey), workDir, fakeNvmlDir, withPython,
                environment, SHARED.resolve("state-" + user), null);
    }

    /**
     * Starts a host whose sessions' {@code python3} is the one installed in {@code python} (a
     * folder the login user can read, with {@code bin/python3} and, for a shared build, its
     * {@code lib/libpython}): its bin first on PATH, its lib first on LD_LIBRARY_PATH.
     */
    static OpenSshHost startWithPython(String name, String address, String user, Path workDir, Path clientPublicKey,
                                       Path fakeNvmlDir, Path python) throws IOException, InterruptedException {
        return start(name, address, java.util.Map.of(user, clientPublicKey), workDir, fakeNvmlDir, true,
                java.util.Map.of(), SHARED.resolve("state-" + user), python);
    }

    /**
     * Starts one host that several users log in to (each with its own client key), whose sessions
     * all see the same GPUs: a node shared by a lab. {@link #username()} is the first user named.
     */
    static OpenSshHost startShared(String name, String address, java.util.LinkedHashMap<String, Path> userKeys,
                                   Path workDir, Path fakeNvmlDir) throws IOException, InterruptedException {
        return start(name, address, userKeys, workDir, fakeNvmlDir, true, java.util.Map.of(),
                SHARED.resolve("state-shared-" + name), null);
    }

    private static OpenSshHost start(String name, String address, java.util.Map<String, Path> userKeys, Path workDir,
                                     Path fakeNvmlDir, boolean withPython, java.util.Map<String, String> environment,
                                     Path state, Path python) throws IOException, InterruptedException {
        Prerequisites.requireOpenSsh();
        Path dir = Files.createDirectories(workDir.resolve("sshd-" + name));
        Path fake = shareFakeNvml(fakeNvmlDir);
        Path keys = Files.createDirectories(SHARED.resolve("keys"));
        for (var entry : userKeys.entrySet()) {
            ensureUser(entry.getKey());
            Files.copy(entry.getValue(), keys.resolve(entry.getKey()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            world(keys.resolve(entry.getKey()));
        }
        String user = userKeys.keySet().iterator().next();
        if (!Files.exists(state)) {
            Files.writeString(state, "");
        }
        world(state);
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", dir.resolve("host_key").toString());
        String first = python == null ? "" : python.resolve("bin") + ":";
        String path = withPython ? first + fake.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin" : noPythonPath(fake);
        String libraries = (python == null ? "" : python.resolve("lib") + ":") + fake.resolve("lib");
        int port = freePort(address);
        Path config = dir.resolve("sshd_config");
        Files.writeString(config, String.join("\n",
                "ListenAddress " + address + ":" + port,
                "HostKey " + dir.resolve("host_key"),
                "PidFile " + dir.resolve("sshd.pid"),
                "UsePAM no",
                "StrictModes no",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes",
                "AuthorizedKeysFile " + keys + "/%u",
                "AllowUsers " + String.join(" ", userKeys.keySet()),
                "MaxStartups 200",
                "MaxSessions 100",
                "LogLevel ERROR",
                "SetEnv LD_LIBRARY_PATH=" + libraries + " NVIDB_FAKE_NVML_STATE=" + state + " PATH=" + path
                        + " NVIDB_CLAIMS_DIR=/tmp/nvidb-it-claims-" + name + "-" + port  // each host a machine of its own
                        + environment.entrySet().stream().map(entry -> " " + entry.getKey() + "=" + entry.getValue())
                                .collect(java.util.stream.Collectors.joining()),
                ""));
        Files.createDirectories(Path.of("/run/sshd"));
        OpenSshHost host = new OpenSshHost(name, address, user, dir, config, port, state);
        host.startDaemon();
        return host;
    }

    /**
     * Lays out a client home for bin/nvidb: {@code home/.ssh} (0700) with a new ed25519 key;
     * returns the public key file, which every host started with it accepts.
     */
    static Path clientHome(Path home) throws IOException, InterruptedException {
        Path ssh = Files.createDirectories(home.resolve(".ssh"));
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", ssh.resolve("id_ed25519").toString());
        return ssh.resolve("id_ed25519.pub");
    }

    String name() {
        return name;
    }

    String address() {
        return address;
    }

    int port() {
        return port;
    }

    String username() {
        return user;
    }

    Path home() {
        return SHARED.resolve("home").resolve(user);
    }

    /** The fake NVML state file this host's sessions read. */
    Path gpuStateFile() {
        return state;
    }

    /** The host's public key line ({@code ssh-ed25519 AAAA... name}). */
    String hostPublicKey() throws IOException {
        return Files.readString(dir.resolve("host_key.pub")).strip();
    }

    /** A known_hosts line for this host. */
    String knownHostsLine() throws IOException {
        String[] parts = hostPublicKey().split(" ");
        return "[" + address + "]:" + port + " " + parts[0] + " " + parts[1];
    }

    void startDaemon() throws IOException, InterruptedException {
        sshd = new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sshd.log").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (!sshd.isAlive()) {
                throw new IOException("sshd for " + name + " exited: " + Files.readString(dir.resolve("sshd.log")));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), 200);
                return;
            } catch (IOException notYet) {
                sshd.waitFor(20, TimeUnit.MILLISECONDS);
            }
        }
        throw new IOException("sshd for " + name + " did not start listening on " + address + ":" + port);
    }

    /** Stops the daemon: connections are refused afterwards; sessions already open go on. */
    void stop() {
        stop(false);
    }

    /**
     * Stops the daemon; with {@code cutSessions} first kills (SIGKILL) each connection's own
     * sshd process, the listener's children, so every open session ends as when the host goes
     * away. Processes those sessions started in sessions of their own (queue jobs) live on.
     */
    void stop(boolean cutSessions) {
        if (sshd != null && cutSessions) {
            sshd.children().forEach(ProcessHandle::destroyForcibly);
        }
        if (sshd != null) {
            sshd.destroy();
            try {
                sshd.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sshd.destroyForcibly();
            sshd = null;
        }
    }

    @Override
    public void close() {
        stop();
    }

    static Path ensureUser(String user) throws IOException, InterruptedException {
        Path home = SHARED.resolve("home").resolve(user);
        Files.createDirectories(home.getParent());
        if (exitCode("id", "-u", user) != 0) {
            run("useradd", "-M", "-d", home.toString(), "-s", "/bin/sh", user);
        }
        // With UsePAM off, sshd refuses a locked account ('!' in shadow); '*' means "no password".
        run("usermod", "-p", "*", "-d", home.toString(), user);
        Files.createDirectories(home);
        run("chown", user + ":", home.toString());
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        return home;
    }

    private static Path shareFakeNvml(Path fakeNvmlDir) throws IOException, InterruptedException {
        Path target = SHARED.resolve("fake-nvml");
        run("rm", "-rf", target.toString());
        Files.createDirectories(SHARED);
        world(SHARED);
        run("cp", "-a", fakeNvmlDir.toString(), target.toString());
        run("chmod", "-R", "a+rX", target.toString());
        return target;
    }

    private static String noPythonPath(Path fake) throws IOException, InterruptedException {
        Path bin = SHARED.resolve("nopython-bin");
        run("rm", "-rf", bin.toString());
        Files.createDirectories(bin);
        for (String tool : List.of("sh", "cat", "uname", "echo", "id", "env", "ls", "mkdir", "rm", "mv", "sleep", "kill")) {
            for (String prefix : List.of("/bin/", "/usr/bin/")) {
                if (Files.isExecutable(Path.of(prefix + tool)) && !Files.exists(bin.resolve(tool))) {
                    Files.createSymbolicLink(bin.resolve(tool), Path.of(prefix + tool));
                }
            }
        }
        Files.createSymbolicLink(bin.resolve("nvidia-smi"), fake.resolve("bin/nvidia-smi"));
        world(bin);
        return bin.toString();
    }

    private static int freePort(String address) throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(address, 0));
            return socket.getLocalPort();
        }
    }

    private static void world(Path path) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
    }

    static void run(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", line) + " failed: " + output.strip());
        }
    }

    static int exitCode(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor();
    }
}
