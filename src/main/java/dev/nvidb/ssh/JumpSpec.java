package dev.nvidb.ssh;

import dev.nvidb.error.ConfigException;
import dev.nvidb.ssh.SshConfigFile.Directive;
import java.util.ArrayList;
import java.util.List;

/**
 * One jump host as a ProxyJump value names it: {@code [user@]host[:port]},
 * {@code [user@][address]:port} or {@code ssh://[user@]host[:port]}, as OpenSSH's
 * parse_user_host_port and parse_ssh_uri read them.
 *
 * @param text the hop as written (for the {@code -J} prefix handed to the next hop)
 * @param user the user, or null for the jump host's own
 * @param host the host or alias, brackets removed
 * @param port the port, or null for the jump host's own
 */
record JumpSpec(String text, String user, String host, Integer port) {

    private static final String HINT = "write jump hosts as [user@]host[:port] or ssh://[user@]host[:port], "
            + "separated by commas";

    /** Throws the refusal for {@code at} when ssh would refuse {@code value}. */
    static void check(String value, Directive at) {
        parse(value, at, null);
    }

    /** The hops of {@code value}, first hop first; none for {@code none}. {@code at} or {@code node} name the source. */
    static List<JumpSpec> parse(String value, Directive at, String node) {
        List<JumpSpec> hops = new ArrayList<>();
        if (value.strip().equalsIgnoreCase("none")) {
            return hops;
        }
        for (String item : value.split(",", -1)) {
            hops.add(hop(item.strip(), value, at, node));
        }
        return hops;
    }

    private static JumpSpec hop(String item, String value, Directive at, String node) {
        String rest = item.startsWith("ssh://") ? item.substring("ssh://".length()) : item;
        String user = null;
        int userEnd = rest.lastIndexOf('@');
        if (userEnd >= 0) {
            user = rest.substring(0, userEnd);
            rest = rest.substring(userEnd + 1);
        }
        String host = rest;
        String port = null;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            host = close < 0 ? "" : rest.substring(1, close);
            String after = close < 0 ? "" : rest.substring(close + 1);
            if (!after.isEmpty()) {
                port = after.startsWith(":") ? after.substring(1) : "";
            }
        } else if (rest.indexOf(':') >= 0) {
            host = rest.substring(0, rest.indexOf(':'));
            port = rest.substring(rest.indexOf(':') + 1);
        }
        if (host.isEmpty() || (user != null && user.isEmpty()) || host.indexOf('/') >= 0) {
            throw invalid(value, at, node);
        }
        Integer number = null;
        if (port != null) {
            try {
                number = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw invalid(value, at, node);
            }
            if (number < 1 || number > 65535) {
                throw invalid(value, at, node);
            }
        }
        return new JumpSpec(item, user, host, number);
    }

    private static ConfigException invalid(String value, Directive at, String node) {
        return at != null ? SshOptions.refusal(at, "Invalid ProxyJump \"" + value + "\"", HINT)
                : new ConfigException(node + ": bad ProxyJump '" + value + "'", HINT);
    }
}
