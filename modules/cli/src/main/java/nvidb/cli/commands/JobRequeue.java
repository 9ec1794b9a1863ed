package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.JobCommands;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.TickView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "requeue", mixinStandardHelpOptions = true, description = {
        "Run finished jobs again (note, tags and dependencies kept).", Outcomes.RULE})
public final class JobRequeue extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        JobCommands.RequeueResult result = service().jobCommands().requeue(ids.values(), tick.after());
        List<Outcomes.Item> items = result.results().stream()
                .map(r -> new Outcomes.Item(r.id(), r.requeued(), r.state())).toList();
        Outcomes.Verdict verdict = Outcomes.verdict(items, "requeue");
        if (json()) {
            List<JobDocuments.Requeued> views = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                views.add(new JobDocuments.Requeued(Outcomes.view(items.get(i), "requeue"), result.results().get(i).requeued()));
            }
            out().document(new JobDocuments.Several<>(verdict.view(), views, TickView.of(result.tick())));
        } else {
            for (JobCommands.Requeued r : result.results()) {
                out().line("job " + r.id() + ": " + (r.requeued() ? "requeued"
                        : r.state() == null ? "not found" : "not requeueable (" + r.state() + ")"));
            }
        }
        return verdict.report(out());
    }
}
