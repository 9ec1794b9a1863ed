package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.core.api.Ids;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ack", mixinStandardHelpOptions = true, description = {
        "Acknowledge alerts once they are understood. Do not acknowledge an alert the user has not seen."})
public final class QueueAck extends BaseCommand {
    @Parameters(arity = "0..*", paramLabel = "IDS", description = "Alert ids (comma lists allowed).")
    List<String> ids = new ArrayList<>();

    @Option(names = "--all", description = "Acknowledge every open alert.")
    boolean all;

    @Override
    protected int execute() {
        int n = service().jobCommands().acknowledge(Ids.parseLists(ids), all);
        if (json()) {
            ObjectNode o = Output.object();
            o.put("ok", true);
            o.put("acknowledged", n);
            out().document(o);
        } else {
            out().line("acknowledged " + n + " alert(s)");
        }
        return 0;
    }
}
