package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import dev.nvidb.ssh.ResolvedTarget.IdentityOrigin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.SessionContext;

/**
 * The identity files of one host, offered to MINA one file at a time: a file is read (and its
 * passphrase asked) only when authentication reaches it, so an agent key that works first
 * never triggers a prompt. Files that cannot be used are recorded in the {@link AuthLog}.
 */
final class IdentityFileKeys implements KeyIdentityProvider {

    private final List<Path> files;
    private final IdentityOrigin origin;
    private final KeyFileCache cache;
    private final AuthLog log;
    private final SshSettings settings;

    IdentityFileKeys(ResolvedTarget hop, KeyFileCache cache, AuthLog log, SshSettings settings) {
        this.files = hop.identityFiles();
        this.origin = hop.identityOrigin();
        this.cache = cache;
        this.log = log;
        this.settings = settings;
    }

    @Override
    public Iterable<KeyPair> loadKeys(SessionContext session) {
        return () -> new Iterator<>() {
            private final Iterator<Path> remaining = files.iterator();
            private final List<KeyPair> pending = new ArrayList<>();

            @Override
            public boolean hasNext() {
                while (pending.isEmpty() && remaining.hasNext()) {
                    pending.addAll(keysOf(remaining.next()));
                }
                return !pending.isEmpty();
            }

            @Override
            public KeyPair next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return pending.remove(0);
            }
        };
    }

    private List<KeyPair> keysOf(Path file) {
        if (!Files.exists(file)) {
            if (origin != IdentityOrigin.DEFAULT) {
                log.note("identity file " + settings.display(file) + " does not exist");
            }
            return List.of();
        }
        try {
            List<KeyPair> keys = cache.load(file);
            log.tried("publickey " + settings.display(file));
            keys.forEach(key -> log.keySource(key.getPublic(), settings.display(file)));
            return keys;
        } catch (SshException problem) {
            log.keyProblem(problem);
            return List.of();
        }
    }
}
