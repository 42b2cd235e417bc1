package dev.nvidb.ssh;

/**
 * How messages name one host of a connection: the node itself, or a jump host on the way to it.
 *
 * @param node the node being reached
 * @param name the host's own name (the node name, or the jump host as written in ProxyJump)
 * @param host the host name or address contacted, as recorded in known_hosts
 * @param port the port
 * @param isJump whether this host is a jump host rather than the node
 */
record HopLabel(String node, String name, String host, int port, boolean isJump) {

    static HopLabel of(ResolvedTarget node, ResolvedTarget hop) {
        return new HopLabel(node.node(), hop.node(), hop.hostname(), hop.port(), hop != node);
    }

    String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** {@code gpu-a (127.0.0.2:2222)} or {@code gpu-a: jump host login-a (127.0.0.3:22)}. */
    String text() {
        return isJump ? node + ": jump host " + name + " (" + address() + ")" : name + " (" + address() + ")";
    }

    /** {@code gpu-a (127.0.0.2:2222)} or {@code jump host login-a (127.0.0.3:22) on the way to gpu-a}. */
    String subject() {
        return isJump ? "jump host " + name + " (" + address() + ") on the way to " + node : name + " (" + address() + ")";
    }
}
