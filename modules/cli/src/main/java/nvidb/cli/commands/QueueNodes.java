package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "nodes", mixinStandardHelpOptions = true, description = {
        "Per-GPU memory, utilisation and every process, including work the queue did not start."})
public final class QueueNodes extends BaseCommand {
    @Option(names = "--procs", description = "List every GPU process with its owner.")
    boolean procs;

    @Option(names = "--include-ignored", description = "Show ignored nodes too.")
    boolean includeIgnored;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        ctx().app().tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(ctx().app().nodes(ctx().caller(), includeIgnored));
        } else {
            out().line(HumanViews.nodes(ctx().app().nodeViews(ctx().caller(), includeIgnored), procs, now()));
        }
        return 0;
    }
}
