package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.cli.output.HumanViews;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.app.Application;
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

    @Option(names = "--sweep", paramLabel = "ID", description = "The runs of this sweep.")
    String sweep;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most the newest N jobs (default 100; 0 for all).")
    int limit = 100;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        if (active) {
            wanted.add(JobState.PENDING);
            wanted.add(JobState.RUNNING);
        } else {
            states.forEach(s -> wanted.add(JobState.fromLabel(s)));
        }
        Application app = ctx().app();
        app.tick(ctx().caller(), tick.read());
        JobQuery query = new JobQuery(wanted, held, node, tag, sweep == null ? null : nvidb.core.api.Ids.parse(sweep), limit);
        if (json()) {
            // Streamed: `-n 0` over a big queue prints every job without holding them all.
            out().streamed(app.jobs(ctx().caller(), query));
        } else {
            out().line(HumanViews.jobTable(app.jobList(ctx().caller(), query), now(), ""));
        }
        return 0;
    }
}
