package nvidb.cli.forward;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;

/**
 * A forwarded command's stdin on the queue host: the client's stdin as its frames arrive. The
 * frames are read on as they come whether or not the command reads them (a Ctrl-C behind them
 * must get through), so what waits here is bounded: past {@link #LIMIT} unread bytes the rest is
 * dropped, and a command that reads that far fails instead of reading a silently cut input.
 */
final class HostInput extends InputStream {
    static final int LIMIT = 16 * 1024 * 1024;

    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private int offset;
    private long buffered;
    private boolean ended;
    private boolean overflowed;

    synchronized void add(byte[] bytes) {
        if (ended) {
            return;
        }
        if (buffered + bytes.length > LIMIT) {
            overflowed = true;
            ended = true;
        } else if (bytes.length > 0) {
            chunks.add(bytes);
            buffered += bytes.length;
        }
        notifyAll();
    }

    synchronized void end() {
        ended = true;
        notifyAll();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (chunks.isEmpty() && !ended) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading stdin");
            }
        }
        if (chunks.isEmpty()) {
            if (overflowed) {
                throw new IOException("stdin is longer than " + (LIMIT >> 20) + " MiB, more than a forwarded command takes");
            }
            return -1;
        }
        byte[] head = chunks.peek();
        int n = Math.min(len, head.length - offset);
        System.arraycopy(head, offset, b, off, n);
        offset += n;
        buffered -= n;
        if (offset == head.length) {
            chunks.poll();
            offset = 0;
        }
        return n;
    }

    @Override
    public synchronized int available() {
        return chunks.isEmpty() ? 0 : chunks.peek().length - offset;
    }
}
