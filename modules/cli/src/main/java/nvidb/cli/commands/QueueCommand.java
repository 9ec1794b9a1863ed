package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nvidb queue …}: the queue as a whole. */
@Command(name = "queue", mixinStandardHelpOptions = true, description = "The queue: passes, events and alerts.",
        subcommands = {QueueStatus.class, QueueNodes.class, QueueTick.class, QueueEvents.class, QueueAlerts.class,
                QueueAck.class, NodeSwitch.Drain.class, NodeSwitch.Resume.class, NodeSwitch.Ignore.class,
                NodeSwitch.Unignore.class})
public final class QueueCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "pick a queue subcommand (status, nodes, tick, events, alerts, ack, drain, resume, ignore, unignore)");
    }
}
