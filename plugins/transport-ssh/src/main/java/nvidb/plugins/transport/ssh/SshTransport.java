package nvidb.plugins.transport.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.future.OpenFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.util.buffer.Buffer;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;

/**
 * Runs scripts on one node over one SSH connection, opened at the first script and reused for
 * every later one. Each script is a round trip: an exec channel running {@code sh -s} (in the
 * user's login shell, as {@code ssh host sh -s} would), the script written to its stdin, stdin
 * closed, then stdout, stderr and the exit status collected. A non-zero exit status is a result,
 * not an error.
 *
 * <p><b>Background processes.</b> sshd closes the channel when {@code sh} has exited <em>and</em>
 * every copy of the channel's stdout and stderr is closed. A job a script starts detached with all
 * its descriptors redirected ({@code setsid cmd </dev/null >log 2>&1 &}) holds none of them, so the
 * answer comes when {@code sh} exits. A background process that keeps the script's stdout or
 * stderr would hold the channel open; as with the local transport, the answer is then "what was
 * printed by the time {@code sh} exited": once the exit status has arrived, the output gets
 * {@link #DRAIN_GRACE} to arrive, then the channel is closed (the process sees its output pipe
 * close).
 *
 * <p><b>Timeouts and retries.</b> {@code connect_timeout} bounds each hop's connect, key exchange
 * and authentication; a connect failure is reported at once, never retried. The run's
 * {@code timeout} bounds opening the channel and the script: past it the channel is closed and the
 * connection dropped, so the next round trip starts afresh. A {@code KILL} signal is asked for
 * first, which OpenSSH delivers to the script's process group in a privilege-separated session; it
 * refuses signals for a root login, and closing the channel does not stop a script that has no
 * terminal, so there the script runs on until it ends by itself (the local transport kills the
 * tree). When the connection turns out to be broken (the node rebooted, a NAT forgot us), a script
 * that was not sent yet is always tried once more on a fresh connection, and one that may have run
 * only when the caller says it is idempotent.
 *
 * <p>Round trips on one transport are serialised; different nodes run in parallel.
 */
final class SshTransport implements Transport {

    /** How long the output may keep arriving after the exit status (see the class comment). */
    static final Duration DRAIN_GRACE = Duration.ofMillis(200);

    private final SshOptions options;
    private final Object runLock = new Object();
    private final Object clientLock = new Object();
    private volatile Connection connection;
    private volatile boolean closed;
    private SshClient client;

    SshTransport(SshOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public ExecResult run(String script, Duration timeout, boolean idempotent) throws TransportException {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (closed) {
            throw new IllegalStateException("the ssh transport to " + options.node + " is closed");
        }
        byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
        synchronized (runLock) {
            Connection c = connected();
            try {
                return exec(c, bytes, timeout);
            } catch (Broken first) {
                drop(c);
                if (!first.beforeScript && !idempotent) {
                    throw new TransportException(Connection.prefix(options) + "the connection broke while a script ran ("
                            + first.getMessage() + "); not retried, as running it twice may not be safe", first);
                }
                Connection fresh = connected();
                try {
                    return exec(fresh, bytes, timeout);
                } catch (Broken second) {
                    drop(fresh);
                    throw new TransportException(Connection.prefix(options) + "the connection broke again on a fresh "
                            + "connection (" + second.getMessage() + ")", second);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Connection c = connection;
        connection = null;
        if (c != null) {
            c.close();
        }
        synchronized (clientLock) {
            if (client != null) {
                SharedClient.release(client);
                client = null;
            }
        }
    }

    /** The open connection, or a new one. */
    private Connection connected() throws TransportException {
        Connection c = connection;
        if (c != null && c.isOpen()) {
            return c;
        }
        if (c != null) {
            drop(c);
        }
        SshClient sshClient;
        synchronized (clientLock) {
            if (closed) {
                throw new TransportException(Connection.prefix(options) + "the transport was closed");
            }
            if (client == null) {
                client = SharedClient.acquire();
            }
            sshClient = client;
        }
        Route route = Route.resolve(options);
        c = Connection.open(sshClient, options, route);
        connection = c;
        if (closed) {
            // close() ran meanwhile and could not see this connection.
            drop(c);
            throw new TransportException(Connection.prefix(options) + "the transport was closed");
        }
        return c;
    }

    private void drop(Connection c) {
        if (connection == c) {
            connection = null;
        }
        c.close();
    }

    private ExecResult exec(Connection c, byte[] script, Duration timeout) throws TransportException, Broken {
        ClientSession session = c.session();
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ChannelExec channel;
        try {
            channel = session.createExecChannel("sh -s");
            channel.setOut(out);
            channel.setErr(err);
            OpenFuture opened = channel.open();
            if (!opened.await(Connection.millisLeft(deadline))) {
                channel.close(true);
                drop(c);
                throw timedOut(timeout);
            }
            if (!opened.isOpened()) {
                channel.close(true);
                if (!c.isOpen()) {
                    throw new Broken(true, Connection.reason(opened.getException()));
                }
                throw new TransportException(Connection.prefix(options) + "sshd refused to run a script: "
                        + Connection.reason(opened.getException()), opened.getException());
            }
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(Connection.prefix(options) + "interrupted while opening a channel", e);
        } catch (IOException | RuntimeException e) {
            // The session was closed under us, or is going away.
            throw new Broken(true, Connection.reason(e));
        }

        feed(channel.getInvertedIn(), script);

        Set<ClientChannelEvent> events = channel.waitFor(
                EnumSet.of(ClientChannelEvent.CLOSED, ClientChannelEvent.EXIT_STATUS, ClientChannelEvent.EXIT_SIGNAL),
                Connection.millisLeft(deadline));
        if (events.contains(ClientChannelEvent.TIMEOUT)) {
            askToKill(channel);
            channel.close(true);
            // Whatever held the answer up may be the connection itself: start afresh next time.
            drop(c);
            throw timedOut(timeout);
        }
        if (!events.contains(ClientChannelEvent.CLOSED)) {
            channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), DRAIN_GRACE.toMillis());
        }
        Integer status = channel.getExitStatus();
        String signal = channel.getExitSignal();
        channel.close(true);
        if (status == null && signal == null) {
            if (!c.isOpen()) {
                throw new Broken(false, "the session closed before the script's exit status came");
            }
            throw new TransportException(Connection.prefix(options) + "sshd closed the channel without an exit status");
        }
        int exit = status != null ? status : 128 + signalNumber(signal);
        return new ExecResult(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Writes the script on its own daemon thread: it may be larger than the channel window, and
     * the node may stop reading it (a script that exits early).
     */
    private void feed(OutputStream stdin, byte[] script) {
        Thread writer = new Thread(() -> {
            try (stdin) {
                stdin.write(script);
            } catch (IOException | RuntimeException closed) {
                // sh exited before reading it all, or the channel closed: the result says how it went.
            }
        }, "nvidb-ssh-stdin-" + options.node);
        writer.setDaemon(true);
        writer.start();
    }

    /** Asks sshd to send SIGKILL to the script (RFC 4254 6.9); best effort, no reply expected. */
    private static void askToKill(ChannelExec channel) {
        try {
            Buffer buffer = channel.getSession().createBuffer(SshConstants.SSH_MSG_CHANNEL_REQUEST, 32);
            buffer.putUInt(channel.getRecipient());
            buffer.putString("signal");
            buffer.putBoolean(false);
            buffer.putString("KILL");
            channel.writePacket(buffer);
        } catch (IOException | RuntimeException ignored) {
            // the channel is closed next anyway
        }
    }

    private TransportException timedOut(Duration timeout) {
        return new TransportException("node " + options.node + " did not answer within " + Connection.seconds(timeout));
    }

    private static final Map<String, Integer> SIGNALS = Map.ofEntries(
            Map.entry("HUP", 1), Map.entry("INT", 2), Map.entry("QUIT", 3), Map.entry("ILL", 4),
            Map.entry("ABRT", 6), Map.entry("FPE", 8), Map.entry("KILL", 9), Map.entry("USR1", 10),
            Map.entry("SEGV", 11), Map.entry("USR2", 12), Map.entry("PIPE", 13), Map.entry("ALRM", 14),
            Map.entry("TERM", 15));

    /** The Linux number of a signal name as RFC 4254 sends it ({@code KILL}); 0 if unknown. */
    static int signalNumber(String name) {
        if (name == null) {
            return 0;
        }
        String n = name.startsWith("SIG") ? name.substring(3) : name;
        return SIGNALS.getOrDefault(n, 0);
    }

    /** The connection failed under a round trip; {@code beforeScript}: the script was not sent. */
    private static final class Broken extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean beforeScript;

        Broken(boolean beforeScript, String message) {
            super(message);
            this.beforeScript = beforeScript;
        }
    }
}
