package nvidb.cli.commands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.UserViews;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Keeper;
import nvidb.core.api.Times;
import nvidb.core.app.Application;
import nvidb.core.app.StatusQuery;
import nvidb.core.app.StatusValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "status", mixinStandardHelpOptions = true, description = "Nodes, per-GPU budgets, jobs and open alerts.")
public final class QueueStatus extends BaseCommand {
    @Option(names = "--procs", description = "List every GPU process.")
    boolean procs;

    @Option(names = "--include-ignored", description = "Show ignored nodes too.")
    boolean includeIgnored;

    @Option(names = "--summary", description = "Counts, nodes with their per-GPU budgets and open alerts; no job lists.")
    boolean summary;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        Application app = ctx().app();
        app.tick(ctx().caller(), tick.read());
        Instant now = now();
        StatusQuery query = StatusQuery.standard(includeIgnored, ctx().queueHost());
        if (json() && summary) {
            out().document(app.statusSummary(ctx().caller(), query));
            return 0;
        }
        if (json()) {
            out().streamed(app.status(ctx().caller(), query));
            return 0;
        }
        StatusValues status = app.statusValues(ctx().caller(), query);
        List<Job> active = status.active();
        List<Job> recent = status.recent();
        List<Job> held = active.stream().filter(Job::held).toList();
        JobQueries.AlertPage alerts = status.alerts();
        Map<String, Long> counts = status.counts();
        Instant lastBackup = status.lastBackupAt();
        out().line("QUEUE  " + (ctx().queueHost() == null ? "" : "host=" + ctx().queueHost() + "  ")
                + "db=" + status.info().database() + "  last tick " + Times.age(status.lastTickAt(), now)
                + (lastBackup == null ? "" : "  backup " + Times.age(lastBackup, now))
                + status.daemon().map(d -> "  daemon " + d.describe()).orElse("") + keeperNote(status.keeper()));
        if (alerts.open() > 0) {
            out().line("");
            out().line("ALERTS  " + alerts.open() + " open (nvidb queue alerts)");
            out().line(HumanViews.alertTable(alerts.alerts()));
        }
        out().line("");
        out().line(HumanViews.nodes(status.nodes(), procs, now));
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

        if (!summary) {
            out().line(HumanViews.jobTable(active, now, "  "));
            if (!recent.isEmpty()) {
                out().line("");
                out().line("RECENTLY FINISHED");
                out().line(HumanViews.jobTable(recent, now, "  "));
            }
        }
        if (UserViews.worthShowing(status.users())) {
            out().line("");
            out().line(UserViews.users(status.users()));
        }
        return 0;
    }

    /** {@code  keeper up|DOWN} when a keeper is installed. */
    private static String keeperNote(Keeper.State k) {
        return k.installed() ? "  keeper " + (k.up() ? "up" : "DOWN") : "";
    }

    private static void addCount(List<String> parts, String label, long n) {
        if (n > 0) {
            parts.add(label + " " + n);
        }
    }
}
