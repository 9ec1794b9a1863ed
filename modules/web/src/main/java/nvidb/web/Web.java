package nvidb.web;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import nvidb.core.api.Queue;

/**
 * The queue in a browser: {@link #start} serves the pages, the HTTP API ({@code /api/v1/…}), the
 * live stream of changes and {@code /metrics} until the server is closed.
 */
public final class Web {
    private Web() {
    }

    /** What the server needs from the program that starts it (the CLI). */
    public interface Backend {
        /** A command's exit code and the one JSON document it printed. */
        record Reply(int exit, String json) {
        }

        /**
         * Runs {@code nvidb ARGS --json} on this queue, as the command line would: the same checks,
         * the same core operation, the same document. Any thread; each call has a queue of its own.
         */
        Reply command(List<String> args);

        /**
         * Runs it as {@link #command(List)} does, its document written into {@code out} while it
         * is printed (a listing of a big queue is never held whole). Returns the exit code.
         */
        int command(List<String> args, java.io.OutputStream out);

        /** Runs {@code work} with a queue that is this thread's alone while it runs. */
        <T> T read(Function<Queue, T> work);
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

    /** Starts serving; a listen address that does not parse or cannot be bound is a usage error naming it. */
    public static Server start(Options options, Backend backend) throws IOException {
        return WebServer.start(options, backend);
    }
}
