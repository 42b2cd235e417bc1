package dev.nvidb.ssh;

import java.util.List;
import org.apache.sshd.client.session.ClientSession;

/**
 * An authenticated session to a node and the jump-host sessions it runs through. Closing any
 * of them closes the rest (a jump host going away takes the node's session with it).
 */
record Connection(ResolvedTarget target, ClientSession session, List<ClientSession> jumps) {

    Connection {
        jumps = List.copyOf(jumps);
        for (ClientSession jump : jumps) {
            jump.addCloseFutureListener(future -> session.close(true));
            session.addCloseFutureListener(future -> jump.close(true));
        }
    }

    boolean isOpen() {
        return session.isOpen() && !session.isClosing();
    }

    void close() {
        session.close(true);
        jumps.forEach(jump -> jump.close(true));
    }
}
