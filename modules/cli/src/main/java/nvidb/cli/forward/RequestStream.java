package nvidb.cli.forward;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * This side of the session's stdin: the header, then this process's own stdin as {@code DATA}
 * frames as it comes (ending with {@code END}), and a signal frame whenever Ctrl-C or SIGTERM
 * arrives here. Frames are written whole, one at a time, whichever thread sends them.
 */
final class RequestStream {
    private final DataOutputStream out;
    private volatile boolean broken;
    private volatile InputStream source;

    RequestStream(OutputStream sshStdin) {
        this.out = new DataOutputStream(new BufferedOutputStream(sshStdin, 64 * 1024));
    }

    synchronized void header(ForwardProtocol.Header header) {
        try {
            ForwardProtocol.write(out, header);
        } catch (IOException e) {
            broken = true; // ssh is gone already; its exit status tells why
        }
    }

    /**
     * Passes {@code stdin} on in a daemon thread: a command that reads its stdin on the host gets
     * these bytes; one that does not never notices them. A terminal's stdin is read the same way,
     * so the thread may stay blocked until the process ends.
     */
    void pump(InputStream stdin) {
        source = stdin;
        Thread.ofPlatform().daemon().name("nvidb-forward-stdin").start(() -> {
            byte[] buf = new byte[64 * 1024];
            try {
                int n;
                while ((n = stdin.read(buf)) >= 0) {
                    if (n > 0 && !frame(ForwardProtocol.DATA, Arrays.copyOf(buf, n))) {
                        return;
                    }
                }
            } catch (IOException e) {
                // an unreadable stdin ends like an empty one
            }
            frame(ForwardProtocol.END, null);
        });
    }

    /** Sends {@code INTERRUPT} or {@code TERMINATE}; false when the session can no longer take it. */
    boolean signal(byte kind) {
        return frame(kind, null);
    }

    private synchronized boolean frame(byte kind, byte[] data) {
        if (broken) {
            return false;
        }
        try {
            out.writeByte(kind);
            if (data != null) {
                ForwardProtocol.writeBlock(out, data);
            }
            out.flush();
            return true;
        } catch (IOException e) {
            broken = true;
            return false;
        }
    }

    /**
     * After the session: the host command has ended, nothing more goes to it. This process's
     * stdin is closed too, which ends a read blocking in the pump (where stdin is a channel):
     * the JVM would otherwise wait up to 300 ms at exit for that thread.
     */
    void close() {
        broken = true;
        InputStream stdin = source;
        if (stdin != null) {
            try {
                stdin.close();
            } catch (IOException e) {
                // the process ends next
            }
        }
        try {
            out.close();
        } catch (IOException e) {
            // already closed by ssh's exit
        }
    }
}
