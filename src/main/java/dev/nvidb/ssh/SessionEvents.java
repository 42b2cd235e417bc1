package dev.nvidb.ssh;

import java.io.IOException;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;

/** Feeds MINA's session events into the {@link HopContext} of each session this package opens. */
final class SessionEvents implements SessionListener {

    @Override
    public void sessionEvent(Session session, Event event) {
        HopContext context = HopContext.of(session);
        if (context != null && event == Event.KeyEstablished) {
            context.keysExchanged().complete(null);
        }
    }

    @Override
    public void sessionException(Session session, Throwable error) {
        HopContext context = HopContext.of(session);
        if (context != null) {
            context.sessionError(error);
        }
    }

    @Override
    public void sessionClosed(Session session) {
        HopContext context = HopContext.of(session);
        if (context != null) {
            Throwable error = context.sessionError();
            context.keysExchanged().completeExceptionally(error != null ? error : new IOException("session closed"));
        }
    }
}
