package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.api.Queue;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
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
        Queue service = service();
        service.tick(tick.read());
        var views = service.nodeAdmin().nodes(includeIgnored);
        if (json()) {
            out().document(new QueueDocuments.Nodes(views.stream().map(v -> NodeView.of(v, false)).toList()));
        } else {
            out().line(HumanViews.nodes(views, procs, now()));
        }
        return 0;
    }
}
