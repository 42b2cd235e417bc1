package dev.nvidb.testing;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** How an {@link SshHarness} host differs from the default; a fluent builder passed to {@code harness.host(name, options)}. */
public final class HostOptions {

    /** The kinds of host key a test host can present. */
    public enum HostKeyType { ED25519, ECDSA }

    private boolean python = true;
    private Path libDir;
    private String password;
    private String username;
    private Set<HostKeyType> hostKeyTypes = EnumSet.of(HostKeyType.ED25519);

    public static HostOptions defaults() {
        return new HostOptions();
    }

    /** Makes {@code python3} unavailable: PATH holds only a private folder of the basic tools. */
    public HostOptions withoutPython() {
        this.python = false;
        return this;
    }

    /** The folder put on LD_LIBRARY_PATH instead of the fake NVML's {@code lib} (e.g. its {@code lib-old}). */
    public HostOptions libDir(Path dir) {
        this.libDir = dir;
        return this;
    }

    /** Accept password authentication with this password (off by default). */
    public HostOptions password(String value) {
        this.password = value;
        return this;
    }

    /** The only user name the host accepts (default: the local user). */
    public HostOptions username(String value) {
        this.username = value;
        return this;
    }

    /** The host keys the host presents (default: ed25519 only). */
    public HostOptions hostKeys(HostKeyType first, HostKeyType... more) {
        this.hostKeyTypes = EnumSet.of(first, more);
        return this;
    }

    boolean python() {
        return python;
    }

    Path libDir() {
        return libDir;
    }

    String password() {
        return password;
    }

    String username() {
        return username;
    }

    Set<HostKeyType> hostKeyTypes() {
        return hostKeyTypes;
    }
}
