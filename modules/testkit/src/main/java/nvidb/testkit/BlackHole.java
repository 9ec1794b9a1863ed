package nvidb.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP server that accepts every connection and never answers (nor closes): a node
 * whose sshd hangs, or a firewall that swallows the session. Close it to drop everything.
 */
public final class BlackHole implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> held = new ArrayList<>();
    private final Thread acceptor;

    /** Opens one on a free loopback port. */
    public static BlackHole open() {
        try {
            return new BlackHole();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private BlackHole() throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = new Thread(this::acceptForever, "nvidb-test-black-hole");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** How many connections it has swallowed. */
    public synchronized int accepted() {
        return held.size();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                synchronized (this) {
                    held.add(s);
                }
            } catch (IOException closed) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (this) {
            for (Socket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            held.clear();
        }
    }
}
