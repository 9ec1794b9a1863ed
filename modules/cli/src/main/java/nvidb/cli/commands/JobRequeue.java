package nvidb.cli.commands;

import nvidb.core.app.Acted;
import nvidb.core.app.Verdicts;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "requeue", mixinStandardHelpOptions = true, description = {
        "Run finished jobs again (note, tags and dependencies kept).", Verdicts.RULE})
public final class JobRequeue extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        Acted<JobDocuments.Several<JobDocuments.Requeued>> acted = ctx().app().requeue(ctx().caller(), ids.values(),
                tick.after());
        if (json()) {
            out().document(acted.document());
        } else {
            for (JobDocuments.Requeued r : acted.document().results()) {
                out().line("job " + r.item().id() + ": " + (r.requeued() ? "requeued"
                        : r.item().state() == null ? "not found" : "not requeueable (" + r.item().state() + ")"));
            }
        }
        return report(acted);
    }
}
