package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * An OpenSSH known_hosts file: plain and hashed ({@code |1|}) host patterns, {@code [host]:port}
 * for ports other than 22, and the {@code @revoked} marker. MINA parses and matches the lines;
 * this class decides what a presented key means and appends new keys.
 */
final class KnownHostsFile {

    /** How a presented key compares with the file. */
    enum Verdict { KNOWN, UNKNOWN, CHANGED, REVOKED }

    private final Path path;
    private final Object appendLock = new Object();

    KnownHostsFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** Compares {@code key} with every entry for {@code host}/{@code port}; the file is read afresh. */
    Verdict check(String host, int port, PublicKey key) {
        boolean hostKnown = false;
        for (KnownHostEntry entry : read()) {
            if (!entry.isHostMatch(host, port) || "cert-authority".equals(entry.getMarker())) {
                continue;
            }
            PublicKey known = keyOf(entry);
            boolean same = known != null && KeyUtils.compareKeys(known, key);
            if (same && "revoked".equals(entry.getMarker())) {
                return Verdict.REVOKED;
            }
            if (same) {
                return Verdict.KNOWN;
            }
            hostKnown |= entry.getMarker() == null;
        }
        return hostKnown ? Verdict.CHANGED : Verdict.UNKNOWN;
    }

    /** The key types known_hosts holds for {@code host}/{@code port} (revoked and CA entries aside). */
    Set<String> knownKeyTypes(String host, int port) {
        Set<String> types = new LinkedHashSet<>();
        for (KnownHostEntry entry : read()) {
            if (entry.getMarker() == null && entry.isHostMatch(host, port)) {
                types.add(entry.getKeyEntry().getKeyType());
            }
        }
        return types;
    }

    /** Appends {@code key} for {@code host}/{@code port}, creating the file (0600) and its folder (0700). */
    void append(String host, int port, PublicKey key) {
        String line = pattern(host, port) + " " + PublicKeyEntry.toString(key) + "\n";
        synchronized (appendLock) {
            try {
                createIfMissing();
                String prefix = endsWithNewline() ? "" : "\n";
                Files.writeString(path, prefix + line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new SshException("cannot record the host key of " + host + " in " + path + ": " + e.getMessage(),
                        "check that the file is writable", e);
            }
        }
    }

    /** {@code host}, or {@code [host]:port} for a port other than 22, as OpenSSH writes it. */
    static String pattern(String host, int port) {
        return port == 22 ? host : "[" + host + "]:" + port;
    }

    private List<KnownHostEntry> read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new SshException("cannot read " + path + ": " + e.getMessage(), null, e);
        }
        List<KnownHostEntry> entries = new ArrayList<>();
        for (String line : lines) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            try {
                KnownHostEntry entry = KnownHostEntry.parseKnownHostEntry(text);
                if (entry != null && entry.getKeyEntry() != null) {
                    entries.add(entry);
                }
            } catch (RuntimeException e) {
                // OpenSSH skips lines it cannot parse; so do we.
            }
        }
        return entries;
    }

    private static PublicKey keyOf(KnownHostEntry entry) {
        try {
            return entry.getKeyEntry().resolvePublicKey(null, PublicKeyEntryResolver.IGNORING);
        } catch (IOException | java.security.GeneralSecurityException | RuntimeException e) {
            return null;
        }
    }

    private void createIfMissing() throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        if (!Files.exists(path)) {
            Files.createFile(path);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private boolean endsWithNewline() throws IOException {
        long size = Files.size(path);
        if (size == 0) {
            return true;
        }
        try (var channel = Files.newByteChannel(path)) {
            channel.position(size - 1);
            var buffer = java.nio.ByteBuffer.allocate(1);
            channel.read(buffer);
            return buffer.get(0) == '\n';
        }
    }
}
