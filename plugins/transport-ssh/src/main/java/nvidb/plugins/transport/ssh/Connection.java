package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.auth.keyboard.UserAuthKeyboardInteractiveFactory;
import org.apache.sshd.client.auth.password.UserAuthPasswordFactory;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.forward.ExplicitPortForwardingTracker;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.SshException;
import org.apache.sshd.client.auth.UserAuthFactory;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.common.util.security.SecurityUtils;
import nvidb.spi.transport.TransportException;

/**
 * One live route to a node: an authenticated SSH session to each jump host, a local port forward
 * through each to the next hop, and the authenticated session to the node itself, which is where
 * scripts run. Opening it is bounded by {@code connect_timeout} per hop (TCP connect, key
 * exchange, host key check and authentication together).
 *
 * <p>A hop behind a jump host is reached through a MINA local port forward bound to
 * {@code 127.0.0.1} on an ephemeral port, for as long as the connection lives (this is how MINA's
 * own ProxyJump support works). Another local user could connect to that port too; they would
 * still face the node's host key and authentication, as with {@code ssh -L}.
 */
final class Connection implements AutoCloseable {

    private final List<ClientSession> sessions;
    private final List<ExplicitPortForwardingTracker> forwards;

    private Connection(List<ClientSession> sessions, List<ExplicitPortForwardingTracker> forwards) {
        this.sessions = sessions;
        this.forwards = forwards;
    }

    /** The session to the node itself. */
    ClientSession session() {
        return sessions.getLast();
    }

    boolean isOpen() {
        for (ClientSession s : sessions) {
            if (!s.isOpen() || s.isClosing()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (int i = sessions.size() - 1; i >= 0; i--) {
            sessions.get(i).close(true);
        }
        for (ExplicitPortForwardingTracker f : forwards) {
            try {
                f.close();
            } catch (IOException | RuntimeException ignored) {
                // the session under it is closed already
            }
        }
    }

    /** Connects and authenticates every hop of the route, jump hosts first. */
    static Connection open(SshClient client, SshOptions o, Route route) throws TransportException {
        List<ClientSession> sessions = new ArrayList<>();
        List<ExplicitPortForwardingTracker> forwards = new ArrayList<>();
        boolean done = false;
        try {
            KnownHosts knownHosts = new KnownHosts(o.knownHosts);
            List<Route.Hop> hops = route.all();
            for (int i = 0; i < hops.size(); i++) {
                Route.Hop hop = hops.get(i);
                boolean isTarget = i == hops.size() - 1;
                InetSocketAddress address;
                String via = "";
                if (sessions.isEmpty()) {
                    address = new InetSocketAddress(hop.host(), hop.port());
                    if (address.isUnresolved()) {
                        throw new TransportException(prefix(o) + "cannot resolve host name " + hop.host()
                                + (hop.alias().equals(hop.host()) ? "" : " (" + hop.alias() + ")"));
                    }
                } else {
                    Route.Hop jump = hops.get(i - 1);
                    via = " through jump host " + jump.label();
                    try {
                        ExplicitPortForwardingTracker forward = sessions.getLast().createLocalPortForwardingTracker(
                                new SshdSocketAddress("127.0.0.1", 0), new SshdSocketAddress(hop.host(), hop.port()));
                        forwards.add(forward);
                        address = forward.getBoundAddress().toInetSocketAddress();
                    } catch (IOException | RuntimeException e) {
                        throw new TransportException(prefix(o) + "cannot forward a connection to " + hop.hostPort()
                                + via + ": " + reason(e), e);
                    }
                }
                sessions.add(connectHop(client, o, knownHosts, hop, address, isTarget, via));
            }
            done = true;
            return new Connection(sessions, forwards);
        } finally {
            if (!done) {
                new Connection(sessions, forwards).close();
            }
        }
    }

    private static ClientSession connectHop(SshClient client, SshOptions o, KnownHosts knownHosts, Route.Hop hop,
                                            InetSocketAddress address, boolean isTarget, String via)
            throws TransportException {
        HopContext ctx = new HopContext(o.node, hop, knownHosts, o.hostKeyCheck);
        String what = (isTarget ? "" : "jump host ") + hop.hostPort() + via;
        long deadline = System.nanoTime() + o.connectTimeout.toNanos();
        ConnectFuture cf;
        try {
            cf = client.connect(hop.user(), address, ctx.asAttributes(), null);
            if (!cf.await(millisLeft(deadline))) {
                cf.cancel();
                // A connection that completes after all is closed at once.
                cf.addListener(f -> {
                    if (f.isConnected()) {
                        f.getSession().close(true);
                    }
                });
                throw new TransportException(prefix(o) + what + " did not accept a connection within "
                        + seconds(o.connectTimeout) + " (connect_timeout)");
            }
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(prefix(o) + "interrupted while connecting to " + what, e);
        } catch (IOException e) {
            throw new TransportException(prefix(o) + "cannot connect to " + what + ": " + reason(e), e);
        }
        if (!cf.isConnected()) {
            Throwable e = cf.getException();
            throw new TransportException(prefix(o) + "cannot connect to " + what + ": " + reason(e), e);
        }

        ClientSession session = cf.getSession();
        boolean authenticated = false;
        try {
            List<String> notes = new ArrayList<>();
            List<String> tried = configureAuth(session, o, hop, isTarget, notes);
            AuthFuture auth = session.auth();
            boolean finished = auth.await(millisLeft(deadline));
            if (ctx.refusal() != null) {
                throw new TransportException(ctx.refusal());
            }
            if (!finished) {
                throw new TransportException(prefix(o) + what + " did not complete the SSH handshake within "
                        + seconds(o.connectTimeout) + " (connect_timeout)");
            }
            if (auth.isSuccess()) {
                authenticated = true;
                return session;
            }
            Throwable e = auth.getException();
            if (isAuthFailure(e)) {
                throw new TransportException(prefix(o) + "authentication to " + hop.label() + " failed (tried: "
                        + String.join(", ", tried) + ")" + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)));
            }
            throw new TransportException(prefix(o) + "the SSH handshake with " + what + " failed: " + reason(e), e);
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(prefix(o) + "interrupted while connecting to " + what, e);
        } catch (IOException | RuntimeException e) {
            if (ctx.refusal() != null) {
                throw new TransportException(ctx.refusal(), e);
            }
            throw new TransportException(prefix(o) + "the SSH handshake with " + what + " failed: " + reason(e), e);
        } finally {
            if (!authenticated) {
                session.close(true);
            }
        }
    }

    /**
     * Gives the session exactly the methods and identities this hop may use and returns the
     * methods' names for a failure message. Jump hosts use keys only; the node's password is for
     * the node.
     */
    private static List<String> configureAuth(ClientSession session, SshOptions o, Route.Hop hop, boolean isTarget,
                                              List<String> notes) {
        boolean keys = !isTarget || o.auth != SshOptions.Auth.PASSWORD;
        boolean password = isTarget && o.auth != SshOptions.Auth.KEY && o.hasPassword();
        List<UserAuthFactory> factories = new ArrayList<>();
        List<String> tried = new ArrayList<>();
        if (keys) {
            factories.add(UserAuthPublicKeyFactory.INSTANCE);
            tried.add("publickey");
            List<KeyPair> pairs = loadKeys(hop, notes);
            session.setKeyIdentityProvider(s -> Collections.unmodifiableList(pairs));
        }
        if (password) {
            factories.add(UserAuthPasswordFactory.INSTANCE);
            // Servers that ask for the password through PAM's keyboard-interactive get it there.
            factories.add(UserAuthKeyboardInteractiveFactory.INSTANCE);
            tried.add("password");
            session.addPasswordIdentity(o.password());
        }
        session.setUserAuthFactories(factories);
        return tried;
    }

    private static List<KeyPair> loadKeys(Route.Hop hop, List<String> notes) {
        List<KeyPair> pairs = new ArrayList<>();
        if (hop.identities().isEmpty()) {
            notes.add("no identity file (looked for ~/.ssh/" + String.join(", ", Route.DEFAULT_IDENTITIES) + ")");
        }
        for (Path p : hop.identities()) {
            if (!Files.isRegularFile(p)) {
                notes.add("identity file " + p + " does not exist");
                continue;
            }
            try (InputStream in = Files.newInputStream(p)) {
                Iterable<KeyPair> loaded = SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(p.toString()),
                        in, FilePasswordProvider.EMPTY);
                if (loaded != null) {
                    loaded.forEach(pairs::add);
                }
            } catch (Exception e) {
                notes.add("identity file " + p + " cannot be used (" + (e.getMessage() == null ? e.getClass().getSimpleName()
                        : e.getMessage()) + "; a key with a passphrase needs it, and nvidb never prompts)");
            }
        }
        return pairs;
    }

    private static boolean isAuthFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SshException se
                    && se.getDisconnectCode() == SshConstants.SSH2_DISCONNECT_NO_MORE_AUTH_METHODS_AVAILABLE) {
                return true;
            }
        }
        return false;
    }

    static String prefix(SshOptions o) {
        return "node " + o.node + ": ";
    }

    /** A short, human cause: the innermost message that says something. */
    static String reason(Throwable e) {
        if (e == null) {
            return "the connection closed";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return t.getMessage() == null ? "connection refused" : t.getMessage();
            }
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() != null ? root.getMessage() : e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    static long millisLeft(long deadlineNanos) {
        return Math.max(1, Duration.ofNanos(deadlineNanos - System.nanoTime()).toMillis());
    }

    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }
}
