package nvidb.cli.web;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import nvidb.cli.context.CliContext;
import nvidb.cli.context.Interrupted;
import nvidb.cli.output.Output;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.web.Web;

/**
 * What the web server asks of the CLI: a request's command line run here, in this process, as
 * {@code nvidb --local --json ARGS} would run on this machine (so the page and the API get the
 * command's own document, checks and error codes), on one of a few queues kept open: each is
 * used by one request at a time, and a request waits for one when all are busy.
 */
public final class WebBackend implements Web.Backend {
    /** Queues open at most: SQLite serialises writers anyway, and readers are quick. */
    static final int QUEUES = 4;

    private final CliContext owner;
    private final BlockingQueue<QueueAccess> idle = new ArrayBlockingQueue<>(QUEUES);
    private final AtomicInteger opened = new AtomicInteger();

    /** @param owner the command line that serves: it opens the queues and closes them when it ends */
    public WebBackend(CliContext owner) {
        this.owner = owner;
    }

    @Override
    public Reply command(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = command(args, out);
        return new Reply(code, out.toString(StandardCharsets.UTF_8));
    }

    @Override
    public int command(List<String> args, OutputStream out) {
        List<String> line = new ArrayList<>(List.of("--local", "--json"));
        line.addAll(args);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Output output = new Output(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        QueueAccess access = borrow();
        try {
            return owner.runLine(line.toArray(String[]::new), CliContext.borrowing(owner.env(), output, access));
        } finally {
            idle.add(access);
        }
    }

    @Override
    public <T> T read(Function<Queue, T> work) {
        QueueAccess access = borrow();
        try {
            return work.apply(access.queue());
        } finally {
            idle.add(access);
        }
    }

    private QueueAccess borrow() {
        QueueAccess free = idle.poll();
        if (free != null) {
            return free;
        }
        if (opened.getAndIncrement() < QUEUES) {
            try {
                return owner.openAccess();
            } catch (NvidbException e) {
                opened.decrementAndGet();
                throw e;
            }
        }
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Interrupted();
        }
    }
}
