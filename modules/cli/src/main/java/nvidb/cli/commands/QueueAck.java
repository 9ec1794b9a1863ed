package nvidb.cli.commands;

import java.util.ArrayList;
import nvidb.core.app.Acted;
import java.util.List;
import nvidb.core.api.Ids;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ack", mixinStandardHelpOptions = true, description = {
        "Acknowledge alerts once they are understood. Do not acknowledge an alert the user has not seen.",
        "Every alert named that exists is acknowledged; exit 3 if any id is unknown."})
public final class QueueAck extends BaseCommand {
    @Parameters(arity = "0..*", paramLabel = "IDS", description = "Alert ids (comma lists allowed).")
    List<String> ids = new ArrayList<>();

    @Option(names = "--all", description = "Acknowledge every open alert.")
    boolean all;

    @Override
    protected int execute() {
        Acted<QueueDocuments.Acked> acted = ctx().app().ack(ctx().caller(), Ids.parseLists(ids), all);
        if (json()) {
            out().document(acted.document());
            return acted.ok() ? 0 : acted.code().exitCode();
        }
        out().line("acknowledged " + acted.document().acknowledged() + " alert(s)");
        return report(acted);
    }
}
