package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.api.Ids;
import nvidb.core.api.JobQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "events", mixinStandardHelpOptions = true, description = {
        "The event log, to catch up on what happened while you were away.",
        "With --since, pass the last_id of the previous call (0 while the log is empty)."})
public final class QueueEvents extends BaseCommand {
    @Option(names = "--since", paramLabel = "ID", converter = NonBlank.class, description = "Only events after this id, oldest first.")
    String since;

    @Option(names = "--job", paramLabel = "ID", description = "Only this job's events.")
    String job;

    @Option(names = {"-n", "--number"}, paramLabel = "N", description = "At most N events (default 50).")
    int number = 50;

    @Mixin
    TickOptions tick;

    /** Reads each event's data in its JSON document. */
    @Override
    protected boolean readsStoredJson() {
        return json();
    }

    @Override
    protected int execute() {
        Long sinceId = since == null ? null : Ids.parseSince(since);
        Long jobId = job == null ? null : Ids.parse(job);
        ctx().app().tick(ctx().caller(), tick.onRequest());
        JobQueries.EventPage page = ctx().app().eventPage(ctx().caller(), sinceId, jobId, number);
        if (json()) {
            out().document(nvidb.core.app.Application.eventsDocument(page));
        } else {
            out().line(HumanViews.eventTable(page.events()));
        }
        return 0;
    }
}
