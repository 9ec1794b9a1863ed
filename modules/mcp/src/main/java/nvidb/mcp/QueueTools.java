package nvidb.mcp;

import java.util.List;
import nvidb.core.api.HealthCheck;
import nvidb.core.api.Ids;
import nvidb.core.api.JobQueries;
import nvidb.core.app.Acted;
import nvidb.core.app.Application;
import nvidb.core.app.StatusQuery;
import nvidb.core.app.SweepOperations;
import nvidb.core.view.QueueDocuments;

/** The handlers of the queue-wide tools (and {@code sweep}): as {@link JobTools}, each its CLI command. */
final class QueueTools {
    private QueueTools() {
    }

    static ToolOutcome events(ToolCall c) {
        ToolArguments a = c.args();
        String since = a.string("since");
        String job = a.string("job");
        Long sinceId = since == null ? null : Ids.parseSince(since);
        Long jobId = job == null ? null : Ids.parse(job);
        int number = a.integer("number", 50);
        c.app().tick(c.caller(), c.onRequestTick());
        JobQueries.EventPage page = c.app().eventPage(c.caller(), sinceId, jobId, number);
        QueueDocuments.Events doc = Application.eventsDocument(page);
        return ToolOutcome.ok(doc, page.events().size() + " event(s); pass since=" + doc.lastId() + " next time");
    }

    static ToolOutcome alerts(ToolCall c) {
        ToolArguments a = c.args();
        boolean all = a.flag("all");
        a.flag("detail"); // the document always carries each alert's detail; the flag shapes the CLI's text only
        c.app().tick(c.caller(), c.readTick());
        JobQueries.AlertPage page = c.app().alertPage(c.caller(), all, a.integer("number", 50));
        return ToolOutcome.ok(Application.alertsDocument(page), page.open() + " open alert(s)"
                + (page.open() > 0 ? "; acknowledge only what the user has seen" : ""));
    }

    static ToolOutcome ack(ToolCall c) {
        ToolArguments a = c.args();
        Acted<QueueDocuments.Acked> acted = c.app().ack(c.caller(), Ids.parseLists(a.strings("ids")), a.flag("all"));
        return ToolOutcome.of(acted.document(), "acknowledged " + acted.document().acknowledged() + " alert(s)",
                acted.code(), acted.message());
    }

    static ToolOutcome status(ToolCall c) {
        ToolArguments a = c.args();
        a.flag("procs"); // the document always lists every GPU process; the flag shapes the CLI's text only
        // The summary unless asked otherwise: a queue of 10,000 jobs is no tool result.
        boolean summary = !a.given("summary") || a.flag("summary");
        c.app().tick(c.caller(), c.readTick());
        StatusQuery query = StatusQuery.standard(a.flag("include_ignored"), null);
        if (summary) {
            var s = c.app().statusSummary(c.caller(), query);
            return ToolOutcome.ok(s, "jobs " + s.counts() + ", " + s.nodes().size() + " node(s), " + s.openAlerts()
                    + " open alert(s)");
        }
        return ToolOutcome.ok(c.app().status(c.caller(), query), null);
    }

    static ToolOutcome nodes(ToolCall c) {
        ToolArguments a = c.args();
        a.flag("procs"); // as for status
        c.app().tick(c.caller(), c.readTick());
        QueueDocuments.Nodes nodes = c.app().nodes(c.caller(), a.flag("include_ignored"));
        return ToolOutcome.ok(nodes, null);
    }

    static ToolOutcome lanes(ToolCall c) {
        String node = c.args().string("node");
        c.app().tick(c.caller(), c.readTick());
        return ToolOutcome.ok(c.app().lanes(c.caller(), node), null);
    }

    static ToolOutcome usage(ToolCall c) {
        ToolArguments a = c.args();
        a.flag("csv"); // the answer is always the document; CSV is the terminal's form of it
        String since = a.string("since");
        String by = a.string("by");
        nvidb.core.app.UsageReport.check(since, by);
        c.app().tick(c.caller(), c.readTick());
        var doc = c.app().usage(c.caller(), since, by);
        return ToolOutcome.ok(doc, doc.rows().size() + " " + doc.by() + "(s), " + doc.total().gpuHours() + " GPU-hours in all");
    }

    static ToolOutcome sweep(ToolCall c) {
        ToolArguments a = c.args();
        long id = Ids.parse(a.string("id"));
        int limit = a.integer("limit", 0);
        if (limit < 0) {
            throw nvidb.core.api.NvidbException.usage("--limit cannot be negative (0 shows every run)");
        }
        String metric = SweepOperations.orderMetric(a.string("metric"), a.flag("min"), a.flag("max"), a.flag("sort"));
        c.app().tick(c.caller(), c.readTick());
        return ToolOutcome.ok(c.app().sweeps().show(c.caller(), id, metric, a.flag("max"), a.flag("sort"), limit), null);
    }

    static ToolOutcome doctor(ToolCall c) {
        List<HealthCheck> checks = c.app().doctor(c.caller());
        QueueDocuments.Doctor report = QueueDocuments.Doctor.of(checks);
        long failed = checks.stream().filter(h -> h.level() == HealthCheck.Level.FAIL).count();
        long warned = checks.stream().filter(h -> h.level() == HealthCheck.Level.WARN).count();
        String summary = checks.size() + " check(s): " + failed + " failed, " + warned + " warning(s)";
        // A failed check is the answer, not a failed call: the document says what to fix.
        return ToolOutcome.ok(report, report.ok() ? summary : summary + "; each failure says what to do");
    }
}
