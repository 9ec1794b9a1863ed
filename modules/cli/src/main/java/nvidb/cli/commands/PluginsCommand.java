package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.Table;
import nvidb.core.api.PluginEntry;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;

@Command(name = "plugins", mixinStandardHelpOptions = true, description = {
        "The plugins this nvidb can use: built-in ones, and site plugins from $NVIDB_HOME/plugins."})
public final class PluginsCommand extends BaseCommand {
    @Override
    protected int execute() {
        List<PluginEntry> plugins = ctx().plugins();
        if (json()) {
            out().document(new QueueDocuments.Plugins(plugins.stream().map(QueueDocuments.Plugin::of).toList()));
        } else {
            Table t = new Table("NAME", "KIND", "VERSION", "ORIGIN");
            for (PluginEntry e : plugins) {
                t.row(e.name(), e.kind().label(), e.factory().version(), e.origin());
            }
            out().line(t.render(""));
        }
        return 0;
    }
}
