package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * The harness's client keys, made with the real {@code ssh-keygen} (so the files are exactly
 * what users have) on first use: the default ed25519 key in {@code ~/.ssh}, the others in a
 * folder beside it where they are not picked up as default identities.
 */
final class ClientKeyring {

    private final Path sshDir;
    private final Path otherDir;
    private final Map<ClientKey, PublicKey> generated = new ConcurrentHashMap<>();

    ClientKeyring(Path sshDir, Path otherDir) {
        this.sshDir = sshDir;
        this.otherDir = otherDir;
    }

    /** The private key file of {@code key}, generating it on first use. */
    synchronized Path file(ClientKey key) {
        Path file = (key == ClientKey.ED25519 ? sshDir : otherDir).resolve(key.fileName());
        if (!generated.containsKey(key)) {
            generate(key, file);
            generated.put(key, readPublic(file.resolveSibling(file.getFileName() + ".pub")));
        }
        return file;
    }

    PublicKey publicKey(ClientKey key) {
        file(key);
        return generated.get(key);
    }

    /** True for the public half of any key generated so far except {@link ClientKey#UNAUTHORIZED}. */
    boolean isAuthorized(PublicKey offered) {
        return generated.entrySet().stream()
                .anyMatch(e -> e.getKey() != ClientKey.UNAUTHORIZED && KeyUtils.compareKeys(e.getValue(), offered));
    }

    private static void generate(ClientKey key, Path file) {
        try {
            Files.createDirectories(file.getParent());
            List<String> command = key.type().equals("rsa")
                    ? List.of("ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", key.passphrase(), "-C", "harness",
                            "-f", file.toString())
                    : List.of("ssh-keygen", "-q", "-t", key.type(), "-N", key.passphrase(), "-C", "harness",
                            "-f", file.toString());
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("ssh-keygen failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static PublicKey readPublic(Path publicFile) {
        try {
            return PublicKeyEntry.parsePublicKeyEntry(Files.readString(publicFile).strip())
                    .resolvePublicKey(null, Map.of(), PublicKeyEntryResolver.FAILING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
