package nvidb.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;

/**
 * {@code nvidb mcp}: the server on this process's stdin and stdout (the SDK's stdio transport),
 * until the client closes stdin. A call still running then (a wait) is interrupted, so the process
 * ends within moments; the jobs go on.
 */
public final class StdioMcp {
    private StdioMcp() {
    }

    /** Serves {@code service} on {@code in}/{@code out} until {@code in} ends. */
    public static void serve(McpService service, InputStream in, OutputStream out) throws InterruptedException {
        CountDownLatch ended = new CountDownLatch(1);
        InputStream filtered = new MessageFilter(in, line -> service.cancellations.inbound("stdio", line), ended::countDown);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(McpService.JSON, filtered, out);
        McpSyncServer server = service.build(McpServer.sync(transport));
        try (AutoCloseable watch = JobResources.watch(service, server, Duration.ofSeconds(1))) {
            ended.await();
            service.cancellations.cancelAll();
        } catch (Exception e) {
            if (e instanceof InterruptedException ie) {
                throw ie;
            }
        } finally {
            service.cancellations.cancelAll();
            server.close();
        }
    }

    /**
     * The client's messages, one JSON-RPC message a line, each passed through {@code inspect}
     * before the SDK reads it (which may change it, or drop it: null); {@code onEnd} runs when the
     * client closes the stream.
     */
    static final class MessageFilter extends InputStream {
        private final InputStream in;
        private final UnaryOperator<String> inspect;
        private final Runnable onEnd;
        private byte[] pending = new byte[0];
        private int at;
        private boolean ended;

        MessageFilter(InputStream in, UnaryOperator<String> inspect, Runnable onEnd) {
            this.in = in;
            this.inspect = inspect;
            this.onEnd = onEnd;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            while (at >= pending.length) {
                if (ended || !nextLine()) {
                    return -1;
                }
            }
            int n = Math.min(len, pending.length - at);
            System.arraycopy(pending, at, b, off, n);
            at += n;
            return n;
        }

        private boolean nextLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                line.write(c);
            }
            if (c < 0 && line.size() == 0) {
                ended = true;
                onEnd.run();
                return false;
            }
            String out = inspect.apply(line.toString(StandardCharsets.UTF_8));
            pending = out == null ? new byte[0] : (out + "\n").getBytes(StandardCharsets.UTF_8);
            at = 0;
            return true;
        }
    }
}
