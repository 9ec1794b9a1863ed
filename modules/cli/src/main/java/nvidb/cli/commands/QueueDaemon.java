package nvidb.cli.commands;

import java.time.Duration;
import java.util.List;
import nvidb.cli.context.StopSignals;
import nvidb.cli.output.DaemonLog;
import nvidb.cli.output.HumanViews;
import nvidb.core.api.Daemon;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.view.BackupDocuments;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "daemon", mixinStandardHelpOptions = true, description = {
        "Keep the queue moving: a scheduler pass every --interval seconds and at once on a change.",
        "A change is another process's write to the queue: a submit, cancel, requeue, release, lane reorder.",
        "While it runs, those commands leave their pass to it. One daemon per database: a second one is",
        "refused (exit 4) naming the first's pid.",
        "Node connections (SSH sessions) stay open between passes. SIGTERM or Ctrl-C: it finishes the pass in",
        "progress, lets go of everything and exits 0. It logs to $NVIDB_HOME/daemon.log (rotated at 1 MiB,",
        "three old files kept). With --json: JSON Lines, one document a pass {at, woken_by, duration_ms, tick,",
        "notified, backup, backup_error}, then {summary: true, passes, dispatched, finished} when stopped; with",
        "--once, the one pass's document.",
        "While it runs, it alone hands alerts to the sinks queue.notify configures (30 s a pass at most).",
        "With queue.backup.enabled it backs the queue up every queue.backup.interval_hours (0: after every pass).",
        "Keep it running with nvidb queue keeper."})
public final class QueueDaemon extends BaseCommand {
    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "15",
            description = "The longest time between two passes (default 15).")
    int interval;

    @Option(names = "--once", description = "Make one pass, print it and exit (for cron); registers no daemon.")
    boolean once;

    @Option(names = "--no-notify", description = "Deliver no alerts; while this daemon runs nobody does (they wait,"
            + " recorded: nvidb queue alerts).")
    boolean noNotify;

    @Option(names = "--no-backup", description = "Take no periodic backups, whatever queue.backup says.")
    boolean noBackup;

    private int passes;
    private int dispatched;
    private int finished;

    @Override
    protected int execute() {
        if (interval < 1) {
            throw NvidbException.usage("--interval takes a number of seconds ≥ 1, not " + interval);
        }
        DaemonLog log = new DaemonLog(ctx().home());
        Daemon daemon;
        try {
            daemon = ctx().daemon(Duration.ofSeconds(interval), once);
        } catch (NvidbException e) {
            if (!once) {
                log.line("not started (pid " + ProcessHandle.current().pid() + "): " + e.getMessage());
            }
            throw e;
        }
        try (daemon) {
            if (once) {
                daemon.run(listener(log), duties());
                return 0;
            }
            return serve(daemon, log);
        }
    }

    private int serve(Daemon daemon, DaemonLog log) {
        String started = "started (" + daemon.registration().describe() + "): a pass every " + interval
                + " s and at once on a change";
        log.line(started);
        if (json()) {
            out().startLines();
        } else {
            out().note("nvidb queue daemon " + started + "; log: " + log.file() + ". SIGTERM or Ctrl-C stops it after its pass.");
        }
        try (StopSignals signals = StopSignals.install(daemon::stop); AutoCloseableWeb web = startWeb(log)) {
            daemon.run(listener(log), duties());
        } catch (NvidbException e) {
            log.line("stopped: " + e.getMessage());
            throw e;
        }
        log.line("stopped after " + passes + " pass(es)");
        if (json()) {
            out().document(new QueueDocuments.WatchSummary(true, passes, dispatched, finished));
        }
        return 0;
    }

    /** The web server of {@code queue.web.listen}, closed with the daemon; none when unset. */
    private interface AutoCloseableWeb extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Serves the web pages where {@code queue.web.listen} says. One that cannot start is logged
     * and the daemon goes on: keeping the queue moving matters more than the pages.
     */
    private AutoCloseableWeb startWeb(DaemonLog log) {
        String listen = ctx().app().info().webListen();
        if (listen == null) {
            return () -> { };
        }
        try {
            nvidb.web.Web.Server server = nvidb.web.Web.start(new nvidb.web.Web.Options(listen, ctx().home(), false),
                    ctx()::openAccess, new CliToolParameters());
            String line = "web pages on " + server.url() + " (the link with the token: "
                    + ctx().home().resolve("web.token") + " holds it)";
            log.line(line);
            if (!json()) {
                out().note(line);
            }
            return server::close;
        } catch (java.io.IOException | NvidbException e) {
            log.line("web pages not served on " + listen + ": " + e.getMessage());
            out().note("web pages not served on " + listen + ": " + e.getMessage());
            return () -> { };
        }
    }

    private Daemon.Duties duties() {
        return new Daemon.Duties(!noNotify, !noBackup);
    }

    private Daemon.Listener listener(DaemonLog log) {
        return new Daemon.Listener() {
            @Override
            public void pass(Daemon.Pass p) {
                passes++;
                dispatched += p.tick().dispatched().size();
                finished += p.tick().finished().size();
                List<String> lines = HumanViews.tickLines(p.tick());
                if (eventful(p.tick())) {
                    log.line("pass (" + p.wokenBy().label() + ", " + p.durationMs() + " ms) " + String.join("; ", lines));
                }
                if (json()) {
                    out().document(BackupDocuments.Pass.of(p));
                } else if (once) {
                    lines.forEach(out()::line);
                }
            }

            @Override
            public void note(String message) {
                log.line(message);
                out().note(message);
            }
        };
    }

    /** A pass worth a log line: it started, ended or held something, or met a problem, or was skipped. */
    private static boolean eventful(TickSummary t) {
        return !t.ran() || !t.dispatched().isEmpty() || !t.finished().isEmpty() || !t.held().isEmpty()
                || !t.errors().isEmpty() || !t.alerts().isEmpty();
    }
}
