package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue …}: the queue as a whole; alone, the TUI. */
@Command(name = "queue", mixinStandardHelpOptions = true, description = {
    "The queue: nodes, passes, events and alerts; alone, the queue on this terminal.",
    "",
    "Without a subcommand (or as queue tui) it shows the cluster and lets you steer it: node cards with per-GPU"
        + " memory bars (# memory of processes the queue did not start, = its reservations, . free), the jobs in"
        + " dispatch order, a job's detail and log, lanes, open alerts first. j/k select, Enter detail, L log,"
        + " c twice cancels, K/J move a pending job, t passes, ? lists every key, q quits."})
public final class QueueCommand implements java.util.concurrent.Callable<Integer> {
    /** The subcommands, by name; the command line registers only the one it runs (start-up time). */
    public static final java.util.Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS = new Subcommands()
            .add("status", QueueStatus::new)
            .add("nodes", QueueNodes::new)
            .add("tick", QueueTick::new)
            .add("events", QueueEvents::new)
            .add("alerts", QueueAlerts::new)
            .add("ack", QueueAck::new)
            .add("lanes", QueueLanes::new)
            .add("lane", QueueLane::new)
            .add("drain", NodeSwitch.Drain::new)
            .add("resume", NodeSwitch.Resume::new)
            .add("ignore", NodeSwitch.Ignore::new)
            .add("unignore", NodeSwitch.Unignore::new)
            .add("backup", QueueBackup::new)
            .add("restore", QueueRestore::new)
            .add("daemon", QueueDaemon::new)
            .add("keeper", QueueKeeper::new)
            .add("tui", QueueTui::new)
            .add("web", QueueWeb::new)
            .add("history", QueueHistory::new)
            .add("usage", QueueUsage::new)
            .add("share", QueueShare::new)
            .add("users", QueueUsers::new)
            .map();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--refresh", paramLabel = "SECONDS", description = "Without a subcommand: as queue tui --refresh.")
    Double refresh;

    @Override
    public Integer call() {
        return QueueTui.launch(spec, refresh);
    }
}
