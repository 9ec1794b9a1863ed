package nvidb.cli.commands;

import nvidb.core.app.Verdicts;

import nvidb.core.app.Acted;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "release", mixinStandardHelpOptions = true, description = {
        "Let a held job run without the prerequisites that ended badly (they are dropped from its --after list).",
        "Never release a job whose prerequisite produced the input it reads.", Verdicts.RULE})
public final class JobRelease extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        Acted<JobDocuments.Several<JobDocuments.Released>> acted = ctx().app().jobOps().release(ctx().caller(),
                ids.values(), tick.after());
        if (json()) {
            out().document(acted.document());
        } else {
            for (JobDocuments.Released r : acted.document().results()) {
                out().line("job " + r.item().id() + ": " + r.reason());
            }
        }
        return report(acted);
    }
}
