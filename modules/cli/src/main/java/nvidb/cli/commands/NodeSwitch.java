package nvidb.cli.commands;

import nvidb.core.api.NodeRecord;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code queue drain|resume|ignore|unignore NAME}: one switch on a node, no pass afterwards. */
public abstract class NodeSwitch extends BaseCommand {
    @Parameters(index = "0", paramLabel = "NODE", description = "The node (exact, case-insensitive, or unique prefix).")
    String node;

    abstract NodeRecord apply(String node);

    abstract String key();

    abstract boolean value(NodeRecord n);

    abstract String word();

    @Override
    protected int execute() {
        NodeRecord n = apply(node);
        if (json()) {
            boolean ignoring = key().equals("ignored");
            out().document(new QueueDocuments.NodeSwitched(true, n.name(), ignoring ? null : (Boolean) value(n),
                    ignoring ? (Boolean) value(n) : null));
        } else {
            out().line("node " + n.name() + " " + word());
        }
        return 0;
    }

    @Command(name = "drain", mixinStandardHelpOptions = true, description = "Stop scheduling onto a node; running jobs finish.")
    public static final class Drain extends NodeSwitch {
        NodeRecord apply(String n) {
            return service().nodeAdmin().setDrained(n, true);
        }

        String key() {
            return "enabled";
        }

        boolean value(NodeRecord n) {
            return n.enabled();
        }

        String word() {
            return "drained";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Schedule onto a drained node again.")
    public static final class Resume extends NodeSwitch {
        NodeRecord apply(String n) {
            return service().nodeAdmin().setDrained(n, false);
        }

        String key() {
            return "enabled";
        }

        boolean value(NodeRecord n) {
            return n.enabled();
        }

        String word() {
            return "resumed";
        }
    }

    @Command(name = "ignore", mixinStandardHelpOptions = true, description = "Do not probe, schedule, or normally show a node.")
    public static final class Ignore extends NodeSwitch {
        NodeRecord apply(String n) {
            return service().nodeAdmin().setIgnored(n, true);
        }

        String key() {
            return "ignored";
        }

        boolean value(NodeRecord n) {
            return n.ignored();
        }

        String word() {
            return "ignored";
        }
    }

    @Command(name = "unignore", mixinStandardHelpOptions = true, description = "Restore an ignored node.")
    public static final class Unignore extends NodeSwitch {
        NodeRecord apply(String n) {
            return service().nodeAdmin().setIgnored(n, false);
        }

        String key() {
            return "ignored";
        }

        boolean value(NodeRecord n) {
            return n.ignored();
        }

        String word() {
            return "unignored";
        }
    }
}
