package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import nvidb.cli.output.DaemonViews;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.LaneViews;
import nvidb.cli.output.Output;
import nvidb.cli.output.StreamedDocument;
import nvidb.cli.output.Views;
import nvidb.core.api.Alert;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;
import nvidb.core.api.Times;
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
    /** Held jobs (pending ones waiting for a decision). */
    private static final JobQuery HELD = new JobQuery(EnumSet.of(JobState.PENDING), true, null, null, 0);

    @Override
    protected int execute() {
        Queue service = service();
        service.tick(tick.read());
        Instant now = now();
        if (json()) {
            printJson(service, now);
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

    /**
     * The document, streamed: each part is read when it is printed, and the held and active jobs
     * one row at a time, so a big queue's status never holds every pending job.
     */
    private void printJson(Queue service, Instant now) {
        JobQueries jobs = service.jobQueries();
        StreamedDocument doc = out().stream();
        doc.field("generated_at", Times.iso(now));
        doc.field("db_path", service.info().database().toString());
        // The queue host a client forwarded this to (its remote.host); null: this machine's own queue.
        doc.field("queue_host", ctx().queueHost());
        doc.field("last_tick_at", Times.iso(service.lastTickAt()));
        doc.field("last_backup_at", Times.iso(service.backups().lastBackupAt().orElse(null)));
        var lease = service.tickLease();
        if (lease.isPresent()) {
            ObjectNode l = Output.object();
            l.put("name", lease.get().name());
            l.put("owner", lease.get().owner());
            l.put("acquired_at", Times.iso(lease.get().acquiredAt()));
            l.put("expires_at", Times.iso(lease.get().expiresAt()));
            doc.field("tick_lock", l);
        } else {
            doc.field("tick_lock", (String) null);
        }
        doc.field("daemon", DaemonViews.daemon(service.daemon()));
        doc.field("keeper", DaemonViews.keeper(ctx().keeper().state()));
        ObjectNode settings = Output.object();
        settings.put("headroom_mb", service.info().headroomMb());
        settings.put("max_jobs_per_gpu", service.info().maxJobsPerGpu());
        settings.put("placement", service.info().placement());
        doc.field("settings", settings);
        ObjectNode c = Output.object();
        jobs.countsByState().forEach(c::put);
        doc.field("counts", c);
        doc.jobs("held", jobs, HELD, true, now);
        ArrayNode n = Output.array();
        service.nodeAdmin().nodes(includeIgnored).forEach(v -> n.add(Views.node(v, true)));
        doc.field("nodes", n);
        ArrayNode lanes = Output.array();
        service.laneQueries().list(null).forEach(v -> lanes.add(LaneViews.view(v, now)));
        doc.field("lanes", lanes);
        doc.jobs("jobs", jobs, ACTIVE, true, now);
        doc.field("recent", Views.jobs(recent(jobs), now));
        JobQueries.AlertPage alerts = jobs.alerts(false, 20);
        ArrayNode a = Output.array();
        for (Alert alert : alerts.alerts()) {
            a.add(Views.alert(alert));
        }
        doc.field("alerts", a);
        doc.field("open_alerts", alerts.open());
        doc.field("pending_reaps", service.nodeAdmin().pendingReaps());
        doc.end();
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
