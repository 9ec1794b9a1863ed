package nvidb.web;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.function.Supplier;
import nvidb.core.app.ApplicationPool;
import nvidb.mcp.McpService;
import nvidb.mcp.ToolParameters;
import nvidb.core.api.QueueAccess;

/**
 * The queue in a browser: {@link #start} serves the pages, the HTTP API ({@code /api/v1/…}), the
 * live stream of changes and {@code /metrics} until the server is closed. Every route is one
 * operation of the application layer ({@link nvidb.core.app.Application}), asked as the web.
 */
public final class Web {
    private Web() {
    }

    /**
     * @param listen    {@code HOST:PORT} (port 0: any free one)
     * @param home      the nvidb home, where {@code web.token} lives
     * @param ownPasses make scheduler passes when due, as the TUI does ({@code nvidb queue web} on
     *                  its own); false inside the daemon, which makes its own
     */
    public record Options(String listen, Path home, boolean ownPasses) {
    }

    /** A running server. */
    public interface Server extends AutoCloseable {
        /** The address it serves, such as {@code http://127.0.0.1:8765/}. */
        URI url();

        /** {@link #url()} with the token in its fragment: the one link to print (it never reaches a log). */
        URI urlWithToken();

        /** Whether it listens beyond loopback (every request then needs the token). */
        boolean exposed();

        /** Closes every connection and stops serving. */
        @Override
        void close();
    }

    /**
     * Starts serving; a listen address that does not parse or cannot be bound is a usage error
     * naming it.
     *
     * @param opener opens another access to the queue, for a request thread of its own (a few are
     *               kept open); the program that starts the server closes them when it ends
     */
    public static Server start(Options options, Supplier<QueueAccess> opener) throws IOException {
        return start(options, opener, null);
    }

    /**
     * As {@link #start(Options, Supplier)}, also serving MCP at {@code /mcp} and submits at
     * {@code POST /api/v1/jobs} and {@code /api/v1/sweeps} with {@code tools}' arguments (the CLI's
     * model of each command); null serves neither.
     */
    public static Server start(Options options, Supplier<QueueAccess> opener, ToolParameters tools) throws IOException {
        McpService mcp = tools == null ? null
                : new McpService(new ApplicationPool(opener, MCP_QUEUES), tools, McpService.skill(), null, null);
        return WebServer.start(options, new Pool(opener), mcp);
    }

    /** Queues the MCP endpoint keeps open at most: a call holds one while it works, a wait while it waits. */
    private static final int MCP_QUEUES = 8;
}
