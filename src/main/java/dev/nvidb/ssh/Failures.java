package dev.nvidb.ssh;

import dev.nvidb.error.SshException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

/** Turns MINA and I/O exceptions into the one-line {@link SshException}s users see. */
final class Failures {

    private Failures() {
    }

    /** {@code gpu-c (127.0.0.4:2222): no answer within 5 s while connecting}. */
    static SshException timeout(HopLabel label, Duration limit, String stage) {
        return new SshException(label.text() + ": no answer within " + seconds(limit) + " while " + stage,
                "check that the host is up and that sshd answers on port " + label.port());
    }

    /** A failure at {@code stage} ("connecting", "exchanging keys", "running the command"). */
    static SshException of(HopLabel label, String stage, Throwable error) {
        Throwable cause = root(error);
        String what;
        String hint = null;
        if (cause instanceof ConnectException) {
            what = "connection refused";
            hint = "is sshd running on " + label.address() + "?";
        } else if (cause instanceof NoRouteToHostException || cause instanceof PortUnreachableException) {
            what = "no route to host";
            hint = "check the address and the network";
        } else if (cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
            what = "unknown host name " + label.host();
            hint = "check HostName in ~/.ssh/config or the node's host in nvidb's config";
        } else if (cause instanceof SocketTimeoutException) {
            what = "timed out";
        } else {
            String message = cause.getMessage();
            what = message == null || message.isBlank() ? cause.getClass().getSimpleName() : message.strip();
        }
        return new SshException(label.text() + ": " + what + " while " + stage, hint, error);
    }

    /** "5 s", "1.5 s" or "300 ms". */
    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format("%.1f s", millis / 1000.0);
    }

    private static Throwable root(Throwable error) {
        Throwable current = error;
        while (current.getCause() != null && current.getCause() != current) {
            current = current.getCause();
        }
        return current;
    }
}
