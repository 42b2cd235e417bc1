package dev.nvidb.ssh;

import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentKeyConstraint;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.Channel;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionContext;

/**
 * Plugs {@link UnixSocketAgent} into MINA: each authentication of a host whose auth setting
 * allows the agent gets a fresh agent connection; other hosts, or no {@code SSH_AUTH_SOCK},
 * get an agent with no keys. Agent forwarding is never offered.
 */
final class AgentConnector implements SshAgentFactory {

    private final Path socket;
    private final SshSettings settings;

    /** {@code socket} may be null when {@code SSH_AUTH_SOCK} is not set. */
    AgentConnector(Path socket, SshSettings settings) {
        this.socket = socket;
        this.settings = settings;
    }

    @Override
    public SshAgent createClient(Session session, FactoryManager manager) {
        HopContext context = HopContext.of(session);
        if (context == null || !context.auth().usesAgent()) {
            return new NoAgent();
        }
        if (socket == null) {
            if (context.auth() == SshAuth.AGENT) {
                context.authLog().note("no ssh-agent (SSH_AUTH_SOCK is not set)");
            }
            return new NoAgent();
        }
        return new LoggingAgent(new UnixSocketAgent(socket), context.authLog(), settings.display(socket));
    }

    @Override
    public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
        // MINA insists on at least one; this one refuses every agent-forwarding channel.
        return List.of(new ChannelFactory() {
            @Override
            public String getName() {
                return "auth-agent@openssh.com";
            }

            @Override
            public Channel createChannel(Session session) throws IOException {
                throw new IOException("agent forwarding is not offered");
            }
        });
    }

    @Override
    public SshAgentServer createServer(ConnectionService service) throws IOException {
        throw new IOException("agent forwarding is not offered");
    }

    /** An agent that holds nothing. */
    private static class NoAgent implements SshAgent {
        @Override
        public Iterable<? extends Map.Entry<PublicKey, String>> getIdentities() {
            return List.of();
        }

        @Override
        public Map.Entry<String, byte[]> sign(SessionContext session, PublicKey key, String algorithm, byte[] data)
                throws IOException {
            throw new IOException("no agent");
        }

        @Override
        public void addIdentity(KeyPair key, String comment, SshAgentKeyConstraint... constraints) throws IOException {
            throw new IOException("no agent");
        }

        @Override
        public void removeIdentity(PublicKey key) throws IOException {
            throw new IOException("no agent");
        }

        @Override
        public void removeAllIdentities() throws IOException {
            throw new IOException("no agent");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() throws IOException {
            // nothing to release
        }
    }

    /** Records in the {@link AuthLog} what the agent offered, and turns an unreachable agent into a note. */
    private static final class LoggingAgent extends NoAgent {
        private final UnixSocketAgent agent;
        private final AuthLog log;
        private final String shown;

        LoggingAgent(UnixSocketAgent agent, AuthLog log, String shown) {
            this.agent = agent;
            this.log = log;
            this.shown = shown;
        }

        @Override
        public Iterable<? extends Map.Entry<PublicKey, String>> getIdentities() {
            try {
                List<Map.Entry<PublicKey, String>> keys = agent.getIdentities();
                log.tried("ssh-agent (" + keys.size() + (keys.size() == 1 ? " key)" : " keys)"));
                return keys;
            } catch (IOException e) {
                log.note("ssh-agent at " + shown + " did not answer: " + e.getMessage());
                return List.of();
            }
        }

        @Override
        public Map.Entry<String, byte[]> sign(SessionContext session, PublicKey key, String algorithm, byte[] data)
                throws IOException {
            return agent.sign(session, key, algorithm, data);
        }

        @Override
        public boolean isOpen() {
            return agent.isOpen();
        }

        @Override
        public void close() throws IOException {
            agent.close();
        }
    }
}
