package nvidb.cli.forward;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The host's stdout and stderr on their way to this process's own, as they come. Nothing passes
 * before the host's nvidb has said {@link ForwardProtocol#HANDSHAKE}: until then stdout is read
 * for that line (lines a login script printed before it are dropped) and stderr is held back. A
 * session that ends without it never reached a forwarding nvidb, and what ssh and the host said
 * instead becomes the client's error message, not output of the command.
 */
final class AnswerStreams {
    /** How much of what came before the handshake is kept, for the error message. */
    private static final int KEEP = 64 * 1024;

    private final InputStream hostOut;
    private final InputStream hostErr;
    private final PrintStream out;
    private final PrintStream err;
    private final Object lock = new Object();
    private final ByteArrayOutputStream heldErr = new ByteArrayOutputStream();
    private final ByteArrayOutputStream preamble = new ByteArrayOutputStream();
    private final CountDownLatch ended = new CountDownLatch(2);
    private volatile boolean handshake;
    private boolean decided;
    private Thread outThread;
    private Thread errThread;

    AnswerStreams(InputStream hostOut, InputStream hostErr, PrintStream out, PrintStream err) {
        this.hostOut = hostOut;
        this.hostErr = hostErr;
        this.out = out;
        this.err = err;
    }

    void start() {
        outThread = Thread.ofPlatform().daemon().name("nvidb-forward-stdout").start(this::copyOut);
        errThread = Thread.ofPlatform().daemon().name("nvidb-forward-stderr").start(this::copyErr);
    }

    /** Whether the host's nvidb answered: from then on the command runs there. */
    boolean handshake() {
        return handshake;
    }

    /**
     * Waits until both streams have ended (the host's bytes are all passed on). A process that
     * inherited ssh's pipes (a connection master gone to the background) could hold them open
     * past ssh's exit, so the wait is bounded; by then everything the command wrote has arrived.
     */
    void awaitEnd(Duration bound) {
        try {
            ended.await(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            decide(false);
        }
    }

    /** What ssh and the host said where no forwarding nvidb answered: stderr, else stdout, trimmed. */
    String hostSaid() {
        synchronized (lock) {
            String text = heldErr.toString(StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                text = preamble.toString(StandardCharsets.UTF_8).strip();
            }
            text = text.replaceAll("\\s*\\n\\s*", " / ");
            return text.length() > 600 ? "…" + text.substring(text.length() - 600) : text;
        }
    }

    private void copyOut() {
        byte[] buf = new byte[64 * 1024];
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            int n;
            while ((n = hostOut.read(buf)) >= 0) {
                if (handshake) {
                    out.write(buf, 0, n);
                    out.flush();
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    if (handshake) {
                        out.write(buf, i, n - i);
                        out.flush();
                        break;
                    }
                    if (buf[i] != '\n' && line.size() < KEEP) {
                        line.write(buf[i]);
                        continue;
                    }
                    synchronized (lock) {
                        String text = line.toString(StandardCharsets.UTF_8);
                        // A terminal on the host (the TUI) ends the line with \r\n.
                        if (text.equals(ForwardProtocol.HANDSHAKE) || text.equals(ForwardProtocol.HANDSHAKE + "\r")) {
                            decide(true);
                        } else {
                            keep(preamble, line.toByteArray());
                            keep(preamble, new byte[] {buf[i]});
                        }
                    }
                    line.reset();
                }
            }
        } catch (IOException e) {
            // ssh went away: its exit status says what happened
        } finally {
            synchronized (lock) {
                keep(preamble, line.toByteArray());
            }
            ended.countDown();
        }
    }

    private void copyErr() {
        byte[] buf = new byte[16 * 1024];
        try {
            int n;
            while ((n = hostErr.read(buf)) >= 0) {
                synchronized (lock) {
                    if (handshake) {
                        err.write(buf, 0, n);
                        err.flush();
                    } else {
                        keep(heldErr, java.util.Arrays.copyOf(buf, n));
                    }
                }
            }
        } catch (IOException e) {
            // as above
        } finally {
            ended.countDown();
        }
    }

    /** Once: the handshake came (held stderr goes out now), or the session ended without it. */
    private void decide(boolean answered) {
        if (decided) {
            return;
        }
        decided = true;
        if (answered) {
            handshake = true;
            err.write(heldErr.toByteArray(), 0, heldErr.size());
            err.flush();
            heldErr.reset();
        }
    }

    private void keep(ByteArrayOutputStream into, byte[] bytes) {
        if (into.size() + bytes.length <= KEEP) {
            into.write(bytes, 0, bytes.length);
        }
    }
}
