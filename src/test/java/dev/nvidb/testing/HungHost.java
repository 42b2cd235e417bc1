package dev.nvidb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A "hung node": a TCP listener that accepts connections and never says a word, so a client
 * gets past TCP connect and then waits for an SSH greeting that never comes.
 */
public final class HungHost implements AutoCloseable {

    private final String name;
    private final ServerSocket listener;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    HungHost(String name, String address) {
        this.name = name;
        try {
            listener = new ServerSocket();
            listener.bind(new InetSocketAddress(InetAddress.getByName(address), 0), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptForever, "harness-hung-" + name);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String name() {
        return name;
    }

    public String address() {
        return listener.getInetAddress().getHostAddress();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** How many connections it has swallowed so far. */
    public int connectionsAccepted() {
        return accepted.size();
    }

    private void acceptForever() {
        while (!listener.isClosed()) {
            try {
                accepted.add(listener.accept());
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
            for (Socket socket : accepted) {
                socket.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
