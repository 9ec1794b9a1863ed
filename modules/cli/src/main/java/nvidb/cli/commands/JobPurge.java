package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.JobState;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "purge", mixinStandardHelpOptions = true, description = {
        "Delete finished job records (events and alerts are kept).",
        "Jobs that a pending or running job still depends on are kept."})
public final class JobPurge extends BaseCommand {
    @Option(names = "--state", paramLabel = "STATE", description = "Only this finished state (repeatable; default all five).")
    List<String> states = new ArrayList<>();

    @Override
    protected int execute() {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        states.forEach(s -> wanted.add(JobState.fromLabel(s)));
        JobDocuments.Purged purged = ctx().app().jobOps().purge(ctx().caller(), wanted);
        if (json()) {
            out().document(purged);
        } else {
            out().line("removed " + purged.removed() + " finished job record(s)");
        }
        return 0;
    }
}
