package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "ls", mixinStandardHelpOptions = true, description = "List jobs, newest first.")
public final class JobList extends BaseCommand {
    @Option(names = "--state", paramLabel = "STATE", description = "Only jobs in this state (repeatable): pending, running, completed, failed, cancelled, timeout, lost.")
    List<String> states = new ArrayList<>();

    @Option(names = "--active", description = "Pending and running jobs only.")
    boolean active;

    @Option(names = "--held", description = "Held jobs only (pending, waiting for a decision).")
    boolean held;

    @Option(names = "--node", description = "Jobs placed on (or pinned to) this node.")
    String node;

    @Option(names = "--tag", description = "Jobs carrying this tag.")
    String tag;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most the newest N jobs (default 100; 0 for all).")
    int limit = 100;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        if (limit < 0) {
            throw nvidb.core.api.NvidbException.usage("--limit cannot be negative (0 lists every job)");
        }
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        if (active) {
            wanted.add(JobState.PENDING);
            wanted.add(JobState.RUNNING);
        } else {
            states.forEach(s -> wanted.add(JobState.fromLabel(s)));
        }
        Queue service = service();
        service.tick(tick.read());
        JobQueries.JobPage page = service.jobQueries().jobs(new JobQuery(wanted, held, node, tag, limit));
        if (json()) {
            ObjectNode o = Output.object();
            o.set("jobs", Views.jobs(page.jobs(), now()));
            o.put("limit", limit);
            o.put("truncated", limit > 0 && page.jobs().size() == limit);
            out().document(o);
        } else {
            out().line(HumanViews.jobTable(page.jobs(), now(), ""));
        }
        return 0;
    }
}
