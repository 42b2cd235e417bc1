package dev.nvidb.ssh;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentKeyConstraint;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * A client for a running ssh-agent over its Unix domain socket ({@code SSH_AUTH_SOCK}), using
 * Java 17's own Unix sockets instead of MINA's native-library agent client. It lists keys and
 * signs with them (the agent protocol's messages 11/12 and 13/14); it never adds or removes keys.
 */
final class UnixSocketAgent implements SshAgent {

    static final byte REQUEST_IDENTITIES = 11;
    static final byte IDENTITIES_ANSWER = 12;
    static final byte SIGN_REQUEST = 13;
    static final byte SIGN_RESPONSE = 14;
    static final int RSA_SHA2_256 = 2;
    static final int RSA_SHA2_512 = 4;
    private static final int MAX_REPLY = 256 * 1024;

    private final Path socket;
    private SocketChannel channel;
    private boolean closed;

    UnixSocketAgent(Path socket) {
        this.socket = socket;
    }

    @Override
    public synchronized List<Map.Entry<PublicKey, String>> getIdentities() throws IOException {
        Buffer reply = request(new byte[] {REQUEST_IDENTITIES});
        expect(reply, IDENTITIES_ANSWER, "list keys");
        int count = reply.getInt();
        List<Map.Entry<PublicKey, String>> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] blob = reply.getBytes();
            String comment = reply.getString();
            try {
                keys.add(new SimpleImmutableEntry<>(new ByteArrayBuffer(blob).getRawPublicKey(), comment));
            } catch (RuntimeException e) {
                // a key type MINA cannot use (e.g. a security key); skip it as ssh would
            }
        }
        return keys;
    }

    @Override
    public synchronized Map.Entry<String, byte[]> sign(SessionContext session, PublicKey key, String algorithm,
            byte[] data) throws IOException {
        String requested = algorithm == null ? KeyUtils.getKeyType(key) : algorithm;
        ByteArrayBuffer message = new ByteArrayBuffer();
        message.putByte(SIGN_REQUEST);
        message.putPublicKey(key);
        message.putBytes(data);
        message.putUInt(flagsFor(requested));
        Buffer reply = request(message.getCompactData());
        expect(reply, SIGN_RESPONSE, "sign with " + KeyUtils.getKeyType(key));
        Buffer signature = new ByteArrayBuffer(reply.getBytes());
        return new SimpleImmutableEntry<>(signature.getString(), signature.getBytes());
    }

    /** The RSA flags asking for the SHA-2 signature the server wants; 0 for other algorithms. */
    static int flagsFor(String algorithm) {
        return switch (algorithm) {
            case "rsa-sha2-256", "rsa-sha2-256-cert-v01@openssh.com" -> RSA_SHA2_256;
            case "rsa-sha2-512", "rsa-sha2-512-cert-v01@openssh.com" -> RSA_SHA2_512;
            default -> 0;
        };
    }

    private Buffer request(byte[] payload) throws IOException {
        if (closed) {
            throw new IOException("agent connection closed");
        }
        if (channel == null) {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(socket));
        }
        ByteBuffer out = ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
        int length = readFully(4).getInt();
        if (length <= 0 || length > MAX_REPLY) {
            throw new IOException("ssh-agent sent a reply of " + length + " bytes");
        }
        return new ByteArrayBuffer(readFully(length).array());
    }

    private ByteBuffer readFully(int size) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(size);
        while (in.hasRemaining()) {
            if (channel.read(in) < 0) {
                throw new EOFException("ssh-agent closed the connection");
            }
        }
        return in.flip();
    }

    private static void expect(Buffer reply, byte type, String what) throws IOException {
        int got = reply.getUByte();
        if (got != type) {
            throw new IOException("ssh-agent refused to " + what + " (reply type " + got + ")");
        }
    }

    @Override
    public KeyPair resolveLocalIdentity(PublicKey key) {
        return null;
    }

    @Override
    public void addIdentity(KeyPair key, String comment, SshAgentKeyConstraint... constraints) throws IOException {
        throw new IOException("nvidb does not add keys to ssh-agent");
    }

    @Override
    public void removeIdentity(PublicKey key) throws IOException {
        throw new IOException("nvidb does not remove keys from ssh-agent");
    }

    @Override
    public void removeAllIdentities() throws IOException {
        throw new IOException("nvidb does not remove keys from ssh-agent");
    }

    @Override
    public synchronized boolean isOpen() {
        return !closed;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        if (channel != null) {
            channel.close();
        }
    }
}
