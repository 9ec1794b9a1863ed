package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.core.api.JobCommands;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "cancel", mixinStandardHelpOptions = true, description = {
        "Cancel pending or running jobs (a running job's process group is killed).",
        "Jobs waiting on a cancelled job with --after are held, not failed.", Outcomes.RULE})
public final class JobCancel extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Override
    protected List<Class<?>> jsonDocuments() {
        return List.of(JobDocuments.Several.class, JobDocuments.Cancelled.class);
    }

    @Override
    protected int execute() {
        List<JobCommands.Cancelled> results = service().jobCommands().cancel(ids.values());
        List<Outcomes.Item> items = results.stream().map(c -> new Outcomes.Item(c.id(), c.cancelled(), c.state())).toList();
        Outcomes.Verdict verdict = Outcomes.verdict(items, "cancel");
        if (json()) {
            List<JobDocuments.Cancelled> views = new ArrayList<>();
            for (int i = 0; i < results.size(); i++) {
                JobCommands.Cancelled c = results.get(i);
                views.add(new JobDocuments.Cancelled(Outcomes.view(items.get(i), "cancel"), c.cancelled(), c.holds()));
            }
            out().document(new JobDocuments.Several<>(verdict.view(), views, null));
        } else {
            for (JobCommands.Cancelled c : results) {
                out().line("job " + c.id() + ": " + (c.cancelled() ? "cancelled"
                        : c.state() == null ? "not found" : "not cancellable (" + c.state() + ")"));
                if (!c.holds().isEmpty()) {
                    String list = c.holds().stream().map(String::valueOf).collect(Collectors.joining(","));
                    out().line("  job(s) " + list + " were waiting for it and are now held. They keep their place in "
                            + "the queue; release or repoint them with `nvidb job release " + c.holds().getFirst()
                            + "` or `nvidb job edit " + c.holds().getFirst() + " --add-after ID`.");
                }
            }
        }
        return verdict.report(out());
    }
}
