package nvidb.cli.commands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import nvidb.cli.output.DaemonViews;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Keeper;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.view.KeeperDocuments;
import nvidb.core.view.QueueDocuments.KeeperState;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code queue keeper [install|status|logs|stop|ensure|uninstall]}: what keeps {@code queue daemon}
 * running on this queue host. Without an action it is {@code status}.
 */
@Command(name = "keeper", mixinStandardHelpOptions = true, description = {
        "Keep the queue daemon running on this queue host; without an action, its status.",
        "The keeper is a POSIX sh supervisor in $NVIDB_HOME",
        "(queue-keeper.sh, started detached with setsid; no root, cron or service manager), or with --systemd",
        "a systemd user unit (nvidb-queue.service). Either starts the daemon again whenever it stops.",
        "Without an action: status, which exits 1 while nothing keeps the queue moving (no keeper up, no daemon)."},
        subcommands = {QueueKeeper.Install.class, QueueKeeper.Status.class, QueueKeeper.Logs.class,
                QueueKeeper.Stop.class, QueueKeeper.Ensure.class, QueueKeeper.Uninstall.class})
public final class QueueKeeper extends BaseCommand {
    @Override
    protected int execute() {
        return status(this);
    }

    /** {@code keeper status}: exit 0 while the keeper is up or a daemon serves the queue, else 1. */
    static int status(BaseCommand c) {
        Keeper.State k = c.ctx().keeper().state();
        Optional<DaemonInfo> d = c.ctx().app().daemon();
        boolean moving = k.up() || d.isPresent();
        if (c.json()) {
            c.out().document(new KeeperDocuments.Status(KeeperState.of(k), KeeperState.of(k), QueueDocuments.Daemon.of(d),
                    moving));
        } else {
            c.out().line(DaemonViews.keeperLine(k));
            c.out().line(d.map(i -> "  daemon " + i.describe() + ", last pass " + Times.age(i.lastPassAt(), now()))
                    .orElse("  no daemon running"));
            describeFiles(c, k);
            if (!moving) {
                c.out().line("  nothing keeps the queue moving: nvidb queue keeper " + (k.installed() ? "ensure"
                        : "install --start"));
            }
        }
        return moving ? 0 : 1;
    }

    private static void describeFiles(BaseCommand c, Keeper.State k) {
        if (k.script() != null) {
            c.out().line("  script " + k.script());
        }
        if (k.unit() != null) {
            c.out().line("  unit   " + k.unit());
        }
        if (k.log() != null) {
            c.out().line("  log    " + k.log());
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = {
            "The keeper and the daemon; exits 1 while nothing keeps the queue moving (no keeper up, no daemon)."})
    public static final class Status extends BaseCommand {
        @Override
        protected int execute() {
            return status(this);
        }
    }

    @Command(name = "install", mixinStandardHelpOptions = true, description = {
            "Write the keeper (replacing one installed before) and, with --start, start it.",
            "The keeper runs <nvidb> --db-path <this database> queue daemon --interval <s>, with this NVIDB_HOME."})
    public static final class Install extends BaseCommand {
        @Option(names = "--systemd", description = "A systemd user unit (nvidb-queue.service) instead of the sh supervisor.")
        boolean systemd;

        @Option(names = "--start", description = "Start it now (again, with the new settings, if it ran).")
        boolean start;

        @Option(names = "--nvidb", paramLabel = "PATH",
                description = "The nvidb executable to run (default: this image's bin/nvidb, else nvidb on PATH).")
        Path nvidb;

        @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "15",
                description = "The daemon's --interval (default 15).")
        int interval;

        @Override
        protected int execute() {
            Keeper.Installed done = ctx().keeper().install(new Keeper.InstallRequest(executable(), interval, systemd,
                    start));
            if (json()) {
                Keeper.State k = done.state();
                out().document(new KeeperDocuments.Installed(done.startError() == null, text(k.script()),
                        executable().toString(), interval, k.kind(), text(k.unit()), text(k.log()), KeeperState.of(k),
                        done.files().stream().map(Object::toString).toList(), done.replaced(), done.command(),
                        start ? (Boolean) (done.startError() == null) : null, done.startError(), KeeperState.of(k)));
            } else {
                out().line((done.replaced() ? "reinstalled" : "installed") + " the " + done.state().kind() + " keeper");
                done.files().forEach(f -> out().line("  wrote  " + f));
                out().line("  runs   " + done.command());
                if (!start) {
                    out().line("  start it with: nvidb queue keeper ensure");
                } else if (done.startError() == null) {
                    out().line("  " + DaemonViews.keeperLine(done.state()));
                }
            }
            if (done.startError() != null) {
                out().note("error: the keeper did not start: " + done.startError());
                return 1;
            }
            return 0;
        }

        /** --nvidb, else the launcher of the image this runs from, else nvidb on PATH. */
        private Path executable() {
            if (nvidb != null) {
                return nvidb.toAbsolutePath();
            }
            String plugins = System.getProperty("nvidb.dist.plugins");
            if (plugins != null && !plugins.isBlank()) {
                Path launcher = Path.of(plugins).toAbsolutePath().getParent().resolve("bin").resolve("nvidb");
                if (Files.isExecutable(launcher)) {
                    return launcher;
                }
            }
            for (String dir : ctx().env().getOrDefault("PATH", "").split(":")) {
                Path p = dir.isEmpty() ? null : Path.of(dir, "nvidb");
                if (p != null && p.isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            }
            throw NvidbException.usage("could not find the nvidb executable to keep running; pass --nvidb"
                    + " /path/to/nvidb/bin/nvidb");
        }
    }

    @Command(name = "ensure", mixinStandardHelpOptions = true, description = {
            "Start the keeper if it is installed and down; nothing if it runs. Exit 3 when none is installed."})
    public static final class Ensure extends BaseCommand {
        @Override
        protected int execute() {
            return stateAnswer(this, "ensure", ctx().keeper().ensure(), null);
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = {
            "Stop the keeper and the queue daemon of this database; the daemon finishes its pass first.",
            "Installed stays installed: ensure starts it again."})
    public static final class Stop extends BaseCommand {
        @Override
        protected int execute() {
            return stateAnswer(this, "stop", ctx().keeper().stop(), null);
        }
    }

    @Command(name = "uninstall", mixinStandardHelpOptions = true, description = {
            "Stop the keeper and its daemon, and remove every file the install wrote (and the keeper's log)."})
    public static final class Uninstall extends BaseCommand {
        @Override
        protected int execute() {
            List<Path> removed = ctx().keeper().uninstall();
            return stateAnswer(this, "uninstall", ctx().keeper().state(), removed);
        }
    }

    /**
     * The reference's answer to a keeper action, {@code {ok, action, output, state}} ({@code output}:
     * the keeper in a sentence), with our {@code keeper} (the same state) beside it.
     */
    private static int stateAnswer(BaseCommand c, String action, Keeper.State state, List<Path> removed) {
        if (c.json()) {
            c.out().document(new KeeperDocuments.Answer(true, action, DaemonViews.keeperLine(state),
                    removed == null ? null : removed.stream().map(Path::toString).toList(), KeeperState.of(state),
                    KeeperState.of(state)));
        } else {
            if (removed != null) {
                removed.forEach(p -> c.out().line("removed " + p));
            }
            c.out().line(DaemonViews.keeperLine(state));
        }
        return 0;
    }

    @Command(name = "logs", mixinStandardHelpOptions = true, description = {
            "The keeper's log: its restarts of the daemon and what the daemon printed.",
            "For --systemd, the unit's journal. The daemon's own log of its passes is $NVIDB_HOME/daemon.log."})
    public static final class Logs extends BaseCommand {
        @Option(names = {"-n", "--number"}, paramLabel = "N", defaultValue = "50", description = "The last N lines (default 50).")
        int lines;

        @Override
        protected int execute() {
            List<String> got = ctx().keeper().logs(lines);
            if (json()) {
                out().document(new KeeperDocuments.Logs(true, "logs", String.join("\n", got),
                        KeeperState.of(ctx().keeper().state()), got));
            } else {
                got.forEach(out()::line);
            }
            return 0;
        }
    }

    private static String text(Path path) {
        return path == null ? null : path.toString();
    }
}
