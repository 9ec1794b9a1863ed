package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nvidb queue …}: the queue as a whole. */
@Command(name = "queue", mixinStandardHelpOptions = true, description = "The queue: nodes, passes, events and alerts.")
public final class QueueCommand implements Runnable {
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
            .add("daemon", QueueDaemon::new)
            .add("keeper", QueueKeeper::new)
            .map();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "pick a queue subcommand (status, nodes, tick, events, alerts, ack, lanes, lane, drain, resume, ignore, unignore, daemon, keeper)");
    }
}
