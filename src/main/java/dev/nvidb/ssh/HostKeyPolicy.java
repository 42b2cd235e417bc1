package dev.nvidb.ssh;

/** What to do with a host key that is not yet in known_hosts. A changed key is refused under every policy. */
public enum HostKeyPolicy {
    /** Refuse hosts whose key is not recorded; the user records it with {@code nvidb trust NODE}. */
    STRICT,
    /** Record the key of a host seen for the first time, then verify it on every later connection. */
    ACCEPT_NEW
}
