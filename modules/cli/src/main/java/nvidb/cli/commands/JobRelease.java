package nvidb.cli.commands;

import nvidb.core.app.Verdicts;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.JobCommands;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.TickView;
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
        JobCommands.ReleaseResult result = service().jobCommands().release(ids.values(), tick.after());
        List<Verdicts.Item> items = result.results().stream()
                .map(r -> new Verdicts.Item(r.id(), r.released(), r.state(), r.reason())).toList();
        Verdicts.Verdict verdict = Verdicts.verdict(items, "release");
        if (json()) {
            List<JobDocuments.Released> views = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                JobCommands.Released r = result.results().get(i);
                views.add(new JobDocuments.Released(Verdicts.view(items.get(i), "release"), r.released(), r.reason(),
                        r.dropped()));
            }
            out().document(new JobDocuments.Several<>(verdict.view(), views, TickView.of(result.tick())));
        } else {
            for (JobCommands.Released r : result.results()) {
                out().line("job " + r.id() + ": " + r.reason());
            }
        }
        return report(verdict);
    }
}
