package nvidb.cli.output;

import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.core.api.Alert;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.NodeState;
import nvidb.core.api.Json;
import nvidb.core.api.Sizes;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.view.JobUsage;
import nvidb.core.view.StoredJson;
import nvidb.core.view.VramSources;

/** The readable forms: tables and the detail page of a job. */
public final class HumanViews {
    private HumanViews() {
    }

    /** The job table, with HELD BY / PROGRESS / NOTE columns only when some row has a value. */
    public static String jobTable(List<Job> jobs, Instant now, String indent) {
        boolean anyHeld = jobs.stream().anyMatch(Job::held);
        boolean anyProgress = jobs.stream().anyMatch(j -> j.progress() != null && !j.progress().isEmpty());
        boolean anyNote = jobs.stream().anyMatch(j -> j.notes() != null && !j.notes().isEmpty());
        List<String> headers = new java.util.ArrayList<>(List.of("ID", "STATE", "NAME", "NODE", "GPU", "VRAM", "USED",
                "ELAPSED", "RC", "COMMAND"));
        if (anyHeld) {
            headers.add("HELD BY");
        }
        if (anyProgress) {
            headers.add("PROGRESS");
        }
        if (anyNote) {
            headers.add("NOTE");
        }
        Table t = new Table(headers.toArray(String[]::new));
        for (Job j : jobs) {
            List<Object> cells = new java.util.ArrayList<>(List.of(
                    j.id(), j.displayState(), Table.clip(j.name().isEmpty() ? "-" : j.name(), 20),
                    j.node() != null ? j.node() : j.nodeConstraint() != null ? j.nodeConstraint() : "-",
                    gpus(j.gpuIds()), j.vramMb() > 0 ? Sizes.format(j.vramMb()) : "-",
                    j.gpuMemMb() != null ? Sizes.format((long) j.gpuMemMb()) : "-",
                    Times.duration(j.elapsedSeconds(now)), j.exitCode() == null ? "-" : j.exitCode(),
                    Table.clip(j.command(), 44)));
            if (anyHeld) {
                cells.add(j.held() ? Table.clip(j.heldReason(), 40) : "-");
            }
            if (anyProgress) {
                cells.add(Table.clip(j.progress(), 40));
            }
            if (anyNote) {
                cells.add(Table.clip(j.notes(), 40));
            }
            t.row(cells.toArray());
        }
        return t.render(indent);
    }

    /**
     * A pass in lines: {@code tick: nodes up=U down=D  dispatched=N  finished=M}, then one line per
     * job started ({@code ->}), ended ({@code <-}), held ({@code ||}) and per problem ({@code !!}).
     */
    public static List<String> tickLines(TickSummary t) {
        StringBuilder sb = new StringBuilder("tick: ");
        if (t.skippedReason() != null) {
            sb.append("skipped=").append(t.skippedReason()).append("  ");
        }
        sb.append("nodes up=").append(t.nodesUp()).append(" down=").append(t.nodesDown()).append("  ");
        if (t.nodesIgnored() > 0) {
            sb.append("ignored=").append(t.nodesIgnored()).append("  ");
        }
        sb.append("dispatched=").append(t.dispatched().size()).append("  finished=").append(t.finished().size());
        List<String> lines = new java.util.ArrayList<>();
        lines.add(sb.toString());
        for (TickSummary.Dispatched d : t.dispatched()) {
            lines.add("  -> job " + d.id() + " started on " + d.node() + " GPU " + d.gpuIds());
        }
        for (TickSummary.Finished f : t.finished()) {
            lines.add("  <- job " + f.id() + " " + f.state());
        }
        for (TickSummary.Held h : t.held()) {
            lines.add("  || job " + h.id() + " held: " + h.reason());
        }
        for (TickSummary.Delivery d : t.deliveries()) {
            lines.add("  >> alert " + d.alertId() + " to " + d.sink() + ": " + d.outcome()
                    + (d.error() == null ? "" : " (" + d.error() + ")"));
        }
        for (TickSummary.Problem p : t.errors()) {
            lines.add("  !! " + p.subjectKey() + " " + p.subject() + ": " + p.error());
        }
        return lines;
    }

    public static String gpus(List<Integer> ids) {
        return ids.isEmpty() ? "-" : ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** {@code job show} without {@code --json}. */
    public static String jobDetail(Job j, List<Event> events, Instant now) {
        StringBuilder sb = new StringBuilder();
        sb.append("JOB ").append(j.id()).append("  ").append(j.displayState());
        if (j.exitCode() != null) {
            sb.append("  (exit ").append(j.exitCode()).append(')');
        }
        sb.append('\n');
        field(sb, "name", j.name().isEmpty() ? "-" : j.name());
        field(sb, "command", j.command());
        field(sb, "workdir", j.workdir() == null ? "-" : j.workdir());
        StringBuilder request = new StringBuilder("gpus=" + j.gpus() + " vram=" + Sizes.format(j.vramMb()));
        if (j.nodeConstraint() != null) {
            request.append(" node=").append(j.nodeConstraint());
        }
        if (j.priority() != 0) {
            request.append(" priority=").append(j.priority());
        }
        if (j.maxRuntimeS() != null) {
            request.append(" timeout=").append(j.maxRuntimeS()).append('s');
        }
        field(sb, "request", request.toString());
        StringBuilder placement = new StringBuilder("node=" + (j.node() == null ? "-" : j.node()) + " gpu="
                + gpus(j.gpuIds()) + " pid=" + (j.remotePid() == null ? "-" : j.remotePid()));
        if (j.lane() != null) {
            placement.append(" lane=").append(j.lane());
        }
        field(sb, "placement", placement.toString());
        field(sb, "vram used", (j.gpuMemMb() == null ? "-" : Sizes.format((long) j.gpuMemMb()))
                + JobUsage.measured(j));
        String source = VramSources.describe(StoredJson.parsed(j.learned().vramSource()));
        if (!source.isEmpty()) {
            field(sb, "vram from", source);
        }
        if (j.learned().failure() != null) {
            field(sb, "failure", j.learned().failure());
        }
        field(sb, "timing", "created=" + iso(j.createdAt()) + " started=" + iso(j.startedAt()) + " finished="
                + iso(j.finishedAt()));
        field(sb, "elapsed", Times.duration(j.elapsedSeconds(now)));
        field(sb, "attempt", j.attempt() + "/" + (j.maxRetries() + 1));
        field(sb, "submitter", (j.submitter() == null ? "-" : j.submitter())
                + (j.user() == null ? "" : "   (OS account " + j.user() + ")"));
        field(sb, "run_dir", j.runDir() == null ? "-" : j.runDir());
        if (j.progress() != null) {
            field(sb, "progress", j.progress() + "   (reported " + Times.age(j.progressAt(), now) + ")");
        }
        if (j.notes() != null) {
            field(sb, "note", j.notes());
        }
        if (j.held()) {
            field(sb, "held", j.heldReason());
            field(sb, "", "release it with `nvidb job release " + j.id() + "`, or repoint it with `nvidb job edit "
                    + j.id() + " --add-after ID`");
        }
        if (j.waiting() != null) {
            field(sb, "waiting", j.waiting());
        }
        if (!j.dependsOn().isEmpty()) {
            field(sb, "depends_on", ids(j.dependsOn()));
        }
        if (!j.dependsAny().isEmpty()) {
            field(sb, "after_any", ids(j.dependsAny()) + "   (any outcome counts)");
        }
        if (!j.tags().isEmpty()) {
            field(sb, "tags", String.join(",", j.tags()));
        }
        if (!j.env().isEmpty()) {
            field(sb, "env", Json.write(j.env()));
        }
        if (j.lastError() != null) {
            field(sb, "error", j.lastError());
        }
        if (j.resultJson() != null) {
            field(sb, "result", j.resultJson());
        }
        if (!events.isEmpty()) {
            sb.append('\n').append("EVENTS\n");
            Table t = new Table("ID", "TIME", "KIND", "MESSAGE");
            for (Event e : events) {
                t.row(e.id(), time(e.ts()), e.kind(), Table.clip(e.message(), 60));
            }
            sb.append(t.render("  ")).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    private static String ids(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static void field(StringBuilder sb, String label, String value) {
        sb.append("  ").append(String.format("%-12s", label)).append(value.replace("\n", "\n              "))
                .append('\n');
    }

    private static String iso(Instant t) {
        return t == null ? "-" : Times.iso(t);
    }

    /** {@code 2026-12-02 10:06:44}: the first 19 characters of the timestamp, T as a space. */
    public static String time(Instant t) {
        String iso = Times.iso(t);
        return iso == null ? "-" : iso.substring(0, 19).replace('T', ' ');
    }

    public static String alertTable(List<Alert> alerts) {
        Table t = new Table("ID", "TIME", "LEVEL", "KIND", "JOB", "NODE", "WHAT");
        for (Alert a : alerts) {
            t.row(a.id(), time(a.ts()), a.severity(), a.kind(), a.jobId() == null ? "-" : a.jobId(),
                    a.node() == null ? "-" : a.node(), Table.clip(a.title(), 60));
        }
        return t.render("");
    }

    /** The NODES block of {@code queue nodes} and {@code queue status}. */
    public static String nodes(List<nvidb.core.api.NodeAdmin.NodeView> views, boolean procs, Instant now) {
        StringBuilder sb = new StringBuilder("NODES");
        if (views.isEmpty()) {
            sb.append("\n  (none)");
        }
        for (var v : views) {
            var n = v.node();
            sb.append("\n  ").append(n.name()).append("  [").append(n.state().label()).append(n.enabled() ? "" : "/drained")
                    .append(n.ignored() ? "/ignored" : "").append("]  ").append(n.hostname() == null ? "-" : n.hostname());
            if (n.state() != NodeState.UP && n.lastError() != null) {
                sb.append("  ! ").append(Table.clip(n.lastError(), 70));
            } else if (n.lastSeen() != null) {
                sb.append("  seen ").append(Times.age(n.lastSeen(), now));
            }
            if (n.state() == NodeState.UP && n.lastError() != null) {
                sb.append("\n    note: ").append(Table.clip(n.lastError(), 100));
            }
            if (v.gpus().isEmpty()) {
                continue;
            }
            Table t = new Table("GPU", "MODEL", "UTIL", "MEM", "UNMANAGED", "QUEUE", "RESERVED", "JOBS", "FREE");
            for (var g : v.gpus()) {
                Integer pct = g.memUsedPercent();
                t.row("GPU" + g.index(), Table.clip(g.name(), 26), (g.utilPercent() == null ? "-" : g.utilPercent()) + "%",
                        Sizes.format(g.memUsedMb() == null ? null : (long) g.memUsedMb()) + "/"
                                + Sizes.format(g.memTotalMb() == null ? null : (long) g.memTotalMb())
                                + (pct == null ? "" : " " + pct + "%"),
                        Sizes.format(g.externalMemMb()) + " (" + ("blind".equals(g.attribution()) ? "blind"
                                : g.externalProcs() + "p") + ")",
                        Sizes.format(g.queueMemMb()), Sizes.format(g.reservedMb()), g.queueJobs(), Sizes.format(g.freeMb()));
            }
            sb.append('\n').append(t.render("    "));
            for (var g : v.gpus()) {
                if (procs) {
                    sb.append("\n      GPU").append(g.index()).append(" processes\n");
                    Table p = new Table("PID", "USER", "MEM", "OWNER", "PROCESS");
                    for (var x : g.processes()) {
                        p.row(x.pid(), Table.clip(x.user() == null ? "-" : x.user(), 12),
                                x.memMb() == null ? "-" : Sizes.format((long) x.memMb()),
                                x.managed() ? "job " + x.jobId() + (x.jobName() == null || x.jobName().isEmpty() ? ""
                                        : " " + x.jobName()) : "external", Table.clip(x.name(), 40));
                    }
                    sb.append(p.render("        "));
                } else if ("blind".equals(g.attribution()) && g.externalMemMb() > 0) {
                    sb.append("\n      unmanaged  ~").append(Sizes.format(g.externalMemMb())).append(" of ")
                            .append(Sizes.format(g.memUsedMb() == null ? null : (long) g.memUsedMb()))
                            .append(" in use; this driver reports no per-process memory");
                } else if (g.externalProcs() > 0) {
                    List<String> names = g.processes().stream().filter(x -> !x.managed()).limit(3)
                            .map(x -> x.name() + " (" + (x.user() == null ? "-" : x.user()) + ", "
                                    + (x.memMb() == null ? "-" : Sizes.format((long) x.memMb())) + ")").toList();
                    sb.append("\n      unmanaged  ").append(Sizes.format(g.externalMemMb())).append(" in ")
                            .append(g.externalProcs()).append(" process(es): ").append(String.join(", ", names))
                            .append(g.externalProcs() > 3 ? ", +" + (g.externalProcs() - 3) + " more" : "");
                }
            }
        }
        return sb.toString();
    }

    public static String eventTable(List<Event> events) {
        Table t = new Table("ID", "TIME", "KIND", "JOB", "NODE", "MESSAGE");
        for (Event e : events) {
            t.row(e.id(), time(e.ts()), e.kind(), e.jobId() == null ? "-" : e.jobId(),
                    e.node() == null ? "-" : e.node(), Table.clip(e.message(), 60));
        }
        return t.render("");
    }
}
