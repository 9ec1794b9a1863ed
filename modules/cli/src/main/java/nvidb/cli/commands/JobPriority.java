package nvidb.cli.commands;

import nvidb.core.app.PriorityChange;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "priority", mixinStandardHelpOptions = true, description = {
        "Read or change a job's priority (higher dispatches first).",
        "  nvidb job priority 12          read",
        "  nvidb job priority 12 5        set",
        "  nvidb job priority 12 +1       adjust (also -2)",
        "  nvidb job priority 12 --up 2   move a pending job two slots earlier (--down later)"})
public final class JobPriority extends BaseCommand {
    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Parameters(index = "1", arity = "0..1", paramLabel = "VALUE", converter = NonBlank.class, description = "5 sets; +1 or -2 adjusts.")
    String value;

    @Option(names = "--up", paramLabel = "N", description = "Move N slots earlier in dispatch order.")
    Integer up;

    @Option(names = "--down", paramLabel = "N", description = "Move N slots later in dispatch order.")
    Integer down;

    @Override
    protected int execute() {
        long jobId = nvidb.core.api.Ids.parse(id);
        PriorityChange change = PriorityChange.of(value, up, down);
        if (change.moves()) {
            int slots = change.slots();
            JobDocuments.Moved moved = ctx().app().movePriority(ctx().caller(), jobId, slots);
            if (json()) {
                out().document(moved);
            } else {
                out().line(moved.moved() ? "job " + jobId + ": moved " + (slots > 0 ? "up" : "down") + " to slot "
                        + moved.slot() : "job " + jobId + ": not moved (already at slot " + moved.slot() + ")");
            }
            return 0;
        }
        JobDocuments.Priority job = ctx().app().priority(ctx().caller(), jobId, value);
        if (json()) {
            out().document(job);
        } else {
            out().line("job " + job.id() + " priority: " + job.priority());
        }
        return 0;
    }
}
