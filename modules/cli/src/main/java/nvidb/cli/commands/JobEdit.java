package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.core.api.Ids;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "edit", mixinStandardHelpOptions = true, description = {
        "Change what a pending or running job waits for; keeps its note, place and submitter.",
        "  nvidb job edit 1418 --drop-after 1404 --add-after 1415"})
public final class JobEdit extends BaseCommand {
    @Mixin
    JobIdArgument id;

    @Option(names = "--add-after", paramLabel = "IDS", description = "Also wait for these to complete.")
    List<String> addAfter = new ArrayList<>();

    @Option(names = "--drop-after", paramLabel = "IDS", description = "Stop waiting for these.")
    List<String> dropAfter = new ArrayList<>();

    @Option(names = "--add-after-any", paramLabel = "IDS", description = "Also wait for these to finish, any outcome.")
    List<String> addAny = new ArrayList<>();

    @Option(names = "--drop-after-any", paramLabel = "IDS", description = "Stop waiting for these (any-outcome list).")
    List<String> dropAny = new ArrayList<>();

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        JobDocuments.Edited edited = ctx().app().jobOps().editDependencies(ctx().caller(), id.value(),
                Ids.parseLists(addAfter), Ids.parseLists(dropAfter), Ids.parseLists(addAny), Ids.parseLists(dropAny),
                tick.after());
        JobView job = edited.job();
        if (json()) {
            out().document(edited);
        } else {
            out().line("job " + job.id() + " (" + (job.held() ? "held" : job.state()) + "): after=" + list(job.dependsOn())
                    + " after-any=" + list(job.dependsAny()) + (edited.changed() ? "" : "  (unchanged)"));
            if (job.held()) {
                out().line("  still held: " + job.heldReason());
            }
        }
        return 0;
    }

    private static String list(List<Long> ids) {
        return ids.isEmpty() ? "-" : ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
