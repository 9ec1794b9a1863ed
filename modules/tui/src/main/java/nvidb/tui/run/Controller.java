package nvidb.tui.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.JobQueries.JobDetail;
import nvidb.core.api.NvidbException;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.tui.model.Action;
import nvidb.tui.model.Key;
import nvidb.tui.model.KeyBindings;
import nvidb.tui.model.KeyDecoder;
import nvidb.tui.model.LowerPane;
import nvidb.tui.model.Snapshot;
import nvidb.tui.model.Status;
import nvidb.tui.model.TuiModel;
import nvidb.tui.view.Frame;
import nvidb.tui.view.Screen;
import org.jline.terminal.Size;

/**
 * The UI thread's loop: read a key (a short wait at most), apply what the workers delivered,
 * draw when anything changed. Three workers, each with a queue of its own, do everything else:
 * {@code db} reads snapshots and details and carries out database-only actions, {@code nodes}
 * makes scheduler passes and node-touching actions, {@code logs} fetches log tails. A node that
 * does not answer holds up its worker, never the keys.
 */
final class Controller implements AutoCloseable {
    /** The longest a key waits before the loop looks at the workers' results and the clock. */
    private static final long KEY_WAIT_MS = 50;
    /** Ages on screen move on even when nothing else does. */
    private static final Duration REDRAW_AT_LEAST = Duration.ofSeconds(1);
    private static final int LOG_LINES = 500;

    private final TuiModel model;
    private final KeyBindings keys;
    private final Duration refresh;
    private final LinkedBlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
    private final Worker db;
    private final Worker nodes;
    private final Worker logs;
    private final AtomicLong actions = new AtomicLong();

    Controller(TuiModel model, Supplier<QueueAccess> opener) {
        this.model = model;
        this.keys = new KeyBindings(model);
        this.refresh = Duration.ofMillis(Math.round(model.refreshSeconds() * 1000));
        this.db = new Worker("db", () -> Session.over(opener.get()), inbox::add);
        this.nodes = new Worker("nodes", () -> Session.over(opener.get()), inbox::add);
        this.logs = new Worker("logs", () -> Session.over(opener.get()), inbox::add);
    }

    /** Runs until a quit; returns the exit code. */
    int run(TerminalSession term) {
        AnsiWriter writer = new AnsiWriter(term.colour());
        KeyDecoder decoder = new KeyDecoder(term::read);
        Instant nextRefresh = Instant.MIN;
        Instant lastDraw = Instant.MIN;
        Size lastSize = null;
        String lowerFetched = null;
        boolean dirty = true;
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                return ErrorCode.INTERRUPTED.exitCode(); // SIGINT or SIGTERM from outside
            }
            Instant now = Instant.now();
            if (!now.isBefore(nextRefresh)) {
                refresh();
                nextRefresh = now.plus(refresh);
                lowerFetched = null; // the detail and the log follow the refresh too
            }
            for (Runnable r = inbox.poll(); r != null; r = inbox.poll()) {
                r.run();
                dirty = true;
            }
            String lower = lowerWanted();
            if (lower != null && !lower.equals(lowerFetched)) {
                fetchLower();
                lowerFetched = lower;
            }
            Size size = term.size();
            if (!size.equals(lastSize)) {
                lastSize = size;
                writer.invalidate();
                dirty = true;
            }
            if (dirty || !now.isBefore(lastDraw.plus(REDRAW_AT_LEAST))) {
                Frame f = Screen.draw(model, size.getColumns(), size.getRows(), now);
                model.setHits(f.hits());
                term.write(writer.render(f));
                dirty = false;
                lastDraw = now;
            }
            Key key = decoder.next(KEY_WAIT_MS);
            if (key != null) {
                dirty = true;
                for (Action a : keys.handle(key, Instant.now())) {
                    if (a instanceof Action.Quit q) {
                        return q.exitCode();
                    }
                    perform(a);
                }
            }
        }
    }

    private void refresh() {
        requestSnapshot();
        if (model.autoTick() && !nodes.pending("tick")) {
            tick(TickMode.AUTO, false);
        }
    }

    private void requestSnapshot() {
        db.submit("snapshot", q -> {
            Snapshot s = SnapshotReader.read(q);
            return () -> model.setSnapshot(s);
        }, e -> () -> model.setRefreshError(message(e)));
    }

    /** A pass on the node worker; {@code report}: its outcome goes to the status line (t), else only its failure. */
    private void tick(TickMode mode, boolean report) {
        model.setTicking(true);
        nodes.submit("tick", q -> {
            TickSummary t = q.app().tick(q.caller(), mode);
            return () -> {
                model.setTicking(false);
                if (report) {
                    model.setStatus(Status.info(ActionRunner.tick(t), Instant.now()));
                }
                requestSnapshot();
            };
        }, e -> () -> {
            model.setTicking(false);
            model.setStatus(Status.error("pass: " + message(e), Instant.now()));
        });
    }

    private void perform(Action a) {
        if (a instanceof Action.Tick) {
            tick(TickMode.FORCE, true);
            return;
        }
        Worker w = ActionRunner.touchesNodes(a) ? nodes : db;
        w.submit("action-" + actions.incrementAndGet(), q -> {
            String outcome = ActionRunner.run(q, a);
            return () -> {
                model.setStatus(Status.info(outcome, Instant.now()));
                if (ActionRunner.passAfter(a)) {
                    tick(TickMode.FORCE, false);
                }
                requestSnapshot();
            };
        }, e -> () -> model.setStatus(Status.error(message(e), Instant.now())));
    }

    /** What the lower pane needs now (the selected job and the pane), or null when closed. */
    private String lowerWanted() {
        Long id = model.selectedJobId();
        return model.lower() == LowerPane.NONE || id == null ? null : model.lower() + ":" + id;
    }

    private void fetchLower() {
        long id = Objects.requireNonNull(model.selectedJobId());
        LowerPane pane = model.lower();
        if (pane == LowerPane.DETAIL) {
            db.submit("detail", q -> {
                JobDetail d = q.app().jobDetail(q.caller(), id);
                return () -> model.setDetail(id, d);
            }, e -> () -> model.setLowerError(id, message(e)));
        } else {
            logs.submit("log", q -> {
                String text = q.app().logs(q.caller(), id, pane == LowerPane.STDERR, LOG_LINES);
                return () -> model.setLog(id, pane, text);
            }, e -> () -> model.setLowerError(id, message(e)));
        }
    }

    static String message(RuntimeException e) {
        if (e instanceof NvidbException n) {
            return n.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    @Override
    public void close() {
        db.stop();
        nodes.stop();
        logs.stop();
        db.close();
        nodes.close();
        logs.close();
    }
}
