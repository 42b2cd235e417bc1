package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.io.resource.PathResource;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * Private keys read from identity files, decrypted at most once per process: a passphrase is
 * asked through the {@link PassphrasePrompt} (up to three tries) and the decrypted key is kept,
 * so ten nodes sharing one key ask once. Failures are not kept; each is one clear line.
 */
final class KeyFileCache {

    private static final int PASSPHRASE_TRIES = 3;

    private final SshSettings settings;
    private final Map<Path, List<KeyPair>> loaded = new ConcurrentHashMap<>();
    private final Map<Path, Object> locks = new ConcurrentHashMap<>();
    /** One prompt at a time: two nodes must not ask the terminal at once. */
    private final Object promptLock = new Object();

    KeyFileCache(SshSettings settings) {
        this.settings = settings;
    }

    /** The key pairs in {@code file}; throws {@link SshException} saying why they cannot be used. */
    List<KeyPair> load(Path file) {
        List<KeyPair> cached = loaded.get(file);
        if (cached != null) {
            return cached;
        }
        synchronized (locks.computeIfAbsent(file, f -> new Object())) {
            return loaded.computeIfAbsent(file, this::read);
        }
    }

    private List<KeyPair> read(Path file) {
        String shown = settings.display(file);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SshException("cannot read identity file " + shown + ": " + e.getMessage(), null, e);
        }
        AtomicBoolean encrypted = new AtomicBoolean();
        try {
            return decode(file, bytes, (session, resource, retry) -> {
                encrypted.set(true);
                return null;
            });
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            if (!encrypted.get()) {
                throw new SshException("cannot read identity file " + shown + ": " + e.getMessage(),
                        "check that it is an OpenSSH or PEM private key", e);
            }
        }
        return readEncrypted(file, bytes, shown);
    }

    private List<KeyPair> readEncrypted(Path file, byte[] bytes, String shown) {
        synchronized (promptLock) {
            for (int attempt = 0; attempt < PASSPHRASE_TRIES; attempt++) {
                Optional<char[]> answer = settings.prompt().ask("Enter passphrase for key '" + shown + "': ");
                if (answer.isEmpty()) {
                    throw new SshException("identity file " + shown
                            + " is protected by a passphrase and there is no terminal to ask for it",
                            "load it into ssh-agent (ssh-add) or run from a terminal");
                }
                char[] secret = answer.get();
                String passphrase = new String(secret);
                Arrays.fill(secret, '\0');
                try {
                    return decode(file, bytes, FilePasswordProvider.of(passphrase));
                } catch (IOException | GeneralSecurityException | RuntimeException e) {
                    // a wrong passphrase fails the key's check values; ask again
                }
            }
        }
        throw new SshException("wrong passphrase for identity file " + shown,
                "check the passphrase (ssh-keygen -y -f " + shown + "), or load the key into ssh-agent");
    }

    private static List<KeyPair> decode(Path file, byte[] bytes, FilePasswordProvider passwords)
            throws IOException, GeneralSecurityException {
        List<KeyPair> pairs = new ArrayList<>();
        Iterable<KeyPair> keys = SecurityUtils.loadKeyPairIdentities(
                null, new PathResource(file), new ByteArrayInputStream(bytes), passwords);
        if (keys != null) {
            keys.forEach(pairs::add);
        }
        if (pairs.isEmpty()) {
            throw new IOException("no private key found");
        }
        return List.copyOf(pairs);
    }
}
