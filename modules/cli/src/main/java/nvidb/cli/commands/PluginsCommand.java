package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.Table;
import nvidb.core.api.PluginEntry;
import picocli.CommandLine.Command;

@Command(name = "plugins", mixinStandardHelpOptions = true, description = {
        "The plugins this nvidb can use: built-in ones, and site plugins from $NVIDB_HOME/plugins."})
public final class PluginsCommand extends BaseCommand {
    @Override
    protected int execute() {
        List<PluginEntry> plugins = ctx().plugins();
        if (json()) {
            ObjectNode o = Output.object();
            ArrayNode a = o.putArray("plugins");
            for (PluginEntry e : plugins) {
                ObjectNode x = a.addObject();
                x.put("name", e.name());
                x.put("kind", e.kind().label());
                x.put("version", e.factory().version());
                x.put("origin", e.origin());
            }
            out().document(o);
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
