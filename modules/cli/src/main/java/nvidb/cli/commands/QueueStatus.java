package nvidb.cli.commands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import nvidb.cli.output.HumanViews;
import nvidb.core.app.StatusQuery;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;
import nvidb.core.api.Times;
import nvidb.core.view.AlertView;
import nvidb.core.view.JobView;
import nvidb.core.view.LaneView;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "status", mixinStandardHelpOptions = true, description = "Nodes, per-GPU budgets, jobs and open alerts.")
public final class QueueStatus extends BaseCommand {
    @Option(names = "--procs", description = "List every GPU process.")
    boolean procs;

    @Option(names = "--include-ignored", description = "Show ignored nodes too.")
    boolean includeIgnored;

    @Mixin
    TickOptions tick;

    /** Pending and running jobs: what the status shows as its jobs. */
    private static final JobQuery ACTIVE = new JobQuery(EnumSet.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0);

    @Override
    protected List<Class<?>> jsonDocuments() {
        return List.of(nvidb.core.view.StatusDocument.class, JobView.class, NodeView.class, LaneView.Detail.class, QueueDocuments.TickLock.class,
                QueueDocuments.Daemon.class, QueueDocuments.KeeperState.class, QueueDocuments.Settings.class,
                AlertView.Listed.class);
    }

    @Override
    protected int execute() {
        Queue service = service();
        service.tick(tick.read());
        Instant now = now();
        if (json()) {
            out().streamed(ctx().app().status(ctx().caller(), StatusQuery.standard(includeIgnored, ctx().queueHost())));
            return 0;
        }
        List<Job> active = service.jobQueries().jobs(ACTIVE).jobs().reversed();
        List<Job> recent = recent(service.jobQueries());
        List<Job> held = active.stream().filter(Job::held).toList();
        var nodes = service.nodeAdmin().nodes(includeIgnored);
        JobQueries.AlertPage alerts = service.jobQueries().alerts(false, 20);
        Map<String, Long> counts = service.jobQueries().countsByState();
        Instant lastBackup = service.backups().lastBackupAt().orElse(null);
        out().line("QUEUE  " + (ctx().queueHost() == null ? "" : "host=" + ctx().queueHost() + "  ")
                + "db=" + service.info().database() + "  last tick " + Times.age(service.lastTickAt(), now)
                + (lastBackup == null ? "" : "  backup " + Times.age(lastBackup, now))
                + service.daemon().map(d -> "  daemon " + d.describe()).orElse("") + keeperNote());
        if (alerts.open() > 0) {
            out().line("");
            out().line("ALERTS  " + alerts.open() + " open (nvidb queue alerts)");
            out().line(HumanViews.alertTable(alerts.alerts()));
        }
        out().line("");
        out().line(HumanViews.nodes(nodes, procs, now));
        out().line("");
        List<String> parts = new ArrayList<>();
        long running = counts.getOrDefault("running", 0L);
        long pending = counts.getOrDefault("pending", 0L) - held.size();
        addCount(parts, "running", running);
        addCount(parts, "pending", pending);
        addCount(parts, "held", held.size());
        for (String s : List.of("completed", "failed", "cancelled", "timeout", "lost")) {
            addCount(parts, s, counts.getOrDefault(s, 0L));
        }
        out().line("JOBS  " + (parts.isEmpty() ? "empty" : String.join(" · ", parts)));
        out().line(HumanViews.jobTable(active, now, "  "));
        if (!recent.isEmpty()) {
            out().line("");
            out().line("RECENTLY FINISHED");
            out().line(HumanViews.jobTable(recent, now, "  "));
        }
        return 0;
    }

    /** {@code  keeper up|DOWN} when a keeper is installed. */
    private String keeperNote() {
        var k = ctx().keeper().state();
        return k.installed() ? "  keeper " + (k.up() ? "up" : "DOWN") : "";
    }

    /** Finished jobs among the 20 newest, at most 10, newest first. */
    private static List<Job> recent(JobQueries jobs) {
        return jobs.jobs(new JobQuery(EnumSet.noneOf(JobState.class), false, null, null, 20)).jobs()
                .stream().filter(j -> j.state().terminal()).limit(10).toList();
    }

    private static void addCount(List<String> parts, String label, long n) {
        if (n > 0) {
            parts.add(label + " " + n);
        }
    }
}
