package dev.nvidb.testing;

/** The client key pairs an {@link SshHarness} can hand out; all but {@link #UNAUTHORIZED} are accepted by every host. */
public enum ClientKey {
    /** The default key, {@code ~/.ssh/id_ed25519} of the harness's client home. */
    ED25519("ed25519", null),
    ECDSA("ecdsa", null),
    RSA("rsa", null),
    /** An ed25519 key encrypted with {@link #PASSPHRASE}. */
    ED25519_PROTECTED("ed25519", ClientKey.PASSPHRASE),
    /** A valid key that no host accepts. */
    UNAUTHORIZED("ed25519", null);

    /** The passphrase of {@link #ED25519_PROTECTED}. */
    public static final String PASSPHRASE = "correct horse battery";

    private final String type;
    private final String passphrase;

    ClientKey(String type, String passphrase) {
        this.type = type;
        this.passphrase = passphrase;
    }

    String type() {
        return type;
    }

    String passphrase() {
        return passphrase == null ? "" : passphrase;
    }

    String fileName() {
        return this == ED25519 ? "id_ed25519" : "id_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
