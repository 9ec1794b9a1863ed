package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Ids;
import nvidb.core.api.JobCommands;
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
        JobCommands.AckResult r = service().jobCommands().acknowledge(Ids.parseLists(ids), all);
        // Like the commands on several jobs: every alert that exists is acknowledged; an unknown id
        // is reported and makes the exit 3, without undoing the others.
        List<Long> missing = r.results().stream().filter(a -> !a.found()).map(JobCommands.Acknowledged::id).toList();
        String error = missing.isEmpty() ? null : "alert" + (missing.size() > 1 ? "s " : " ")
                + String.join(", ", missing.stream().map(String::valueOf).toList()) + " not found";
        if (json()) {
            String notFound = ErrorCode.NOT_FOUND.label();
            out().document(new QueueDocuments.Acked(error == null, error, error == null ? null : notFound,
                    r.acknowledged(), r.results().stream().map(x -> new QueueDocuments.AckResult(x.id(), x.found(),
                            x.acknowledged(), x.found() ? null : "alert " + x.id() + " not found",
                            x.found() ? null : notFound)).toList()));
        } else {
            out().line("acknowledged " + r.acknowledged() + " alert(s)");
            if (error != null) {
                out().note("error: " + error);
            }
        }
        return error == null ? 0 : ErrorCode.NOT_FOUND.exitCode();
    }
}
