package nvidb.cli.commands;

import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code queue drain|resume|ignore|unignore NAME}: one switch on a node, no pass afterwards. */
public abstract class NodeSwitch extends BaseCommand {
    @Parameters(index = "0", paramLabel = "NODE", description = "The node (exact, case-insensitive, or unique prefix).")
    String node;

    abstract QueueDocuments.NodeSwitched apply(String node);

    abstract String word();

    @Override
    protected int execute() {
        QueueDocuments.NodeSwitched n = apply(node);
        if (json()) {
            out().document(n);
        } else {
            out().line("node " + n.node() + " " + word());
        }
        return 0;
    }

    @Command(name = "drain", mixinStandardHelpOptions = true, description = "Stop scheduling onto a node; running jobs finish.")
    public static final class Drain extends NodeSwitch {
        QueueDocuments.NodeSwitched apply(String n) {
            return ctx().app().drain(ctx().caller(), n, true);
        }

        String word() {
            return "drained";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Schedule onto a drained node again.")
    public static final class Resume extends NodeSwitch {
        QueueDocuments.NodeSwitched apply(String n) {
            return ctx().app().drain(ctx().caller(), n, false);
        }

        String word() {
            return "resumed";
        }
    }

    @Command(name = "ignore", mixinStandardHelpOptions = true, description = "Do not probe, schedule, or normally show a node.")
    public static final class Ignore extends NodeSwitch {
        QueueDocuments.NodeSwitched apply(String n) {
            return ctx().app().ignore(ctx().caller(), n, true);
        }

        String word() {
            return "ignored";
        }
    }

    @Command(name = "unignore", mixinStandardHelpOptions = true, description = "Restore an ignored node.")
    public static final class Unignore extends NodeSwitch {
        QueueDocuments.NodeSwitched apply(String n) {
            return ctx().app().ignore(ctx().caller(), n, false);
        }

        String word() {
            return "unignored";
        }
    }
}
