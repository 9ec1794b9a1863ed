package nvidb.cli.commands;

import java.util.stream.Collectors;
import nvidb.core.app.Acted;
import nvidb.core.app.Verdicts;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "cancel", mixinStandardHelpOptions = true, description = {
        "Cancel pending or running jobs (a running job's process group is killed).",
        "Jobs waiting on a cancelled job with --after are held, not failed.", Verdicts.RULE})
public final class JobCancel extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Override
    protected int execute() {
        Acted<JobDocuments.Several<JobDocuments.Cancelled>> acted = ctx().app().cancel(ctx().caller(), ids.values());
        if (json()) {
            out().document(acted.document());
        } else {
            for (JobDocuments.Cancelled c : acted.document().results()) {
                long id = c.item().id();
                out().line("job " + id + ": " + (c.cancelled() ? "cancelled"
                        : c.item().state() == null ? "not found" : "not cancellable (" + c.item().state() + ")"));
                if (!c.holds().isEmpty()) {
                    String list = c.holds().stream().map(String::valueOf).collect(Collectors.joining(","));
                    out().line("  job(s) " + list + " were waiting for it and are now held. They keep their place in "
                            + "the queue; release or repoint them with `nvidb job release " + c.holds().getFirst()
                            + "` or `nvidb job edit " + c.holds().getFirst() + " --add-after ID`.");
                }
            }
        }
        return report(acted);
    }
}
