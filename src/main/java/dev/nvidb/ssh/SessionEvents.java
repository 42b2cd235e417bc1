package dev.nvidb.ssh;

import java.io.IOException;
import java.util.Map;
import org.apache.sshd.common.kex.KexProposalOption;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;

/**
 * Feeds MINA's session events into the {@link HopContext} of each session this package opens,
 * and lets its host-key check reorder the host-key algorithms before key exchange.
 */
final class SessionEvents implements SessionListener {

    @Override
    public void sessionEvent(Session session, Event event) {
        HopContext context = HopContext.of(session);
        if (context != null && event == Event.KeyEstablished) {
            context.keysExchanged().complete(null);
        }
    }

    @Override
    public void sessionNegotiationOptionsCreated(Session session, Map<KexProposalOption, String> proposal) {
        HopContext context = HopContext.of(session);
        if (context != null) {
            proposal.computeIfPresent(KexProposalOption.SERVERKEYS,
                    (option, offered) -> context.hostKeyCheck().preferKnownTypes(offered));
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
