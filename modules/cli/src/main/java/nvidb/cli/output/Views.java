package nvidb.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Instant;
import java.util.List;
import nvidb.core.api.Alert;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.Json;
import nvidb.core.api.SinkDelivery;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;

/** The JSON contract: each record as {@code --json} prints it (keys and order of the reference). */
public final class Views {
    private Views() {
    }

    /** A job with the 37 keys of the reference, in its order. */
    public static ObjectNode job(Job j, Instant now) {
        ObjectNode o = Output.object();
        o.put("id", j.id());
        o.put("name", j.name());
        o.put("state", j.state().label());
        o.put("command", j.command());
        o.put("workdir", j.workdir());
        ObjectNode env = o.putObject("env");
        j.env().forEach(env::put);
        o.put("priority", j.priority());
        o.put("gpus", j.gpus());
        o.put("vram_mb", j.vramMb());
        o.put("node_constraint", j.nodeConstraint());
        longs(o.putArray("depends_on"), j.dependsOn());
        longs(o.putArray("depends_any"), j.dependsAny());
        o.put("max_runtime_s", j.maxRuntimeS());
        o.put("submitter", j.submitter());
        ArrayNode tags = o.putArray("tags");
        j.tags().forEach(tags::add);
        o.put("created_at", Times.iso(j.createdAt()));
        o.put("started_at", Times.iso(j.startedAt()));
        o.put("finished_at", Times.iso(j.finishedAt()));
        Double elapsed = j.elapsedSeconds(now);
        if (elapsed == null) {
            o.putNull("elapsed_s");
        } else {
            o.put("elapsed_s", Math.round(elapsed * 10) / 10.0);
        }
        o.put("node", j.node());
        ArrayNode gpus = o.putArray("gpu_ids");
        j.gpuIds().forEach(gpus::add);
        o.put("lane", j.lane());
        o.put("lane_seq", j.laneSeq());
        o.put("remote_pid", j.remotePid());
        o.put("run_dir", j.runDir());
        o.put("exit_code", j.exitCode());
        o.put("attempt", j.attempt());
        o.put("max_retries", j.maxRetries());
        o.put("last_error", j.lastError());
        o.put("heartbeat_at", Times.iso(j.heartbeatAt()));
        o.put("gpu_mem_mb", j.gpuMemMb());
        o.set("result", parsed(j.resultJson()));
        o.put("notes", j.notes());
        o.put("progress", j.progress());
        o.put("progress_at", Times.iso(j.progressAt()));
        o.put("held_reason", j.held() ? j.heldReason() : null);
        o.put("held", j.held());
        return o;
    }

    public static ArrayNode jobs(List<Job> jobs, Instant now) {
        ArrayNode a = Output.array();
        for (Job j : jobs) {
            a.add(job(j, now));
        }
        return a;
    }

    public static ObjectNode event(Event e) {
        ObjectNode o = Output.object();
        o.put("id", e.id());
        o.put("ts", Times.iso(e.ts()));
        o.put("kind", e.kind());
        o.put("job_id", e.jobId());
        o.put("node", e.node());
        o.put("message", e.message());
        o.set("data", parsed(e.dataJson()));
        return o;
    }

    /** The alert as its sinks receive it, with what each sink did with it. */
    public static ObjectNode alert(Alert a) {
        ObjectNode o = a.payload();
        ArrayNode deliveries = o.putArray("deliveries");
        for (SinkDelivery d : a.deliveries()) {
            ObjectNode x = deliveries.addObject();
            x.put("sink", d.sink());
            x.put("state", d.state());
            x.put("delivered_at", Times.iso(d.deliveredAt()));
            x.put("skipped_at", Times.iso(d.skippedAt()));
            x.put("attempts", d.attempts());
            x.put("next_try_at", Times.iso(d.nextTryAt()));
            x.put("last_error", d.lastError());
        }
        return o;
    }

    /** A node with its GPUs; {@code allowlistOnly} hides cards outside {@code gpus:} that carry no queue job. */
    public static ObjectNode node(nvidb.core.api.NodeAdmin.NodeView v, boolean allowlistOnly) {
        var n = v.node();
        ObjectNode o = Output.object();
        o.put("name", n.name());
        o.put("hostname", n.hostname());
        o.put("port", n.port());
        o.put("username", n.username());
        o.put("state", n.state().label());
        o.put("enabled", n.enabled());
        o.put("ignored", n.ignored());
        o.put("last_seen", Times.iso(n.lastSeen()));
        o.put("last_error", n.lastError());
        o.put("gpu_count", n.gpuCount());
        o.put("probed_at", Times.iso(n.probedAt()));
        ArrayNode gpus = o.putArray("gpus");
        for (nvidb.core.api.GpuState g : v.gpus()) {
            boolean allowed = v.allowlist() == null || v.allowlist().contains(g.index());
            if (!allowlistOnly || allowed || g.queueJobs() > 0) {
                gpus.add(gpu(g));
            }
        }
        return o;
    }

    public static ObjectNode gpu(nvidb.core.api.GpuState g) {
        ObjectNode o = Output.object();
        o.put("node", g.node());
        o.put("index", g.index());
        o.put("name", g.name());
        o.put("mem_total_mb", g.memTotalMb());
        o.put("mem_used_mb", g.memUsedMb());
        o.put("mem_used_percent", g.memUsedPercent());
        o.put("external_mem_mb", g.externalMemMb());
        o.put("external_procs", g.externalProcs());
        o.put("queue_mem_mb", g.queueMemMb());
        o.put("attribution", g.attribution());
        o.put("reserved_mb", g.reservedMb());
        o.put("queue_jobs", g.queueJobs());
        o.put("free_mb", g.freeMb());
        o.put("util_percent", g.utilPercent());
        o.put("mem_util_percent", g.memUtilPercent());
        o.put("temperature_c", g.temperatureC());
        ArrayNode procs = o.putArray("processes");
        for (var p : g.processes()) {
            ObjectNode x = procs.addObject();
            x.put("pid", p.pid());
            x.put("mem_mb", p.memMb());
            x.put("name", p.name());
            x.put("user", p.user());
            x.putNull("type");
            x.put("job_id", p.jobId());
            x.put("job_name", p.jobName());
            x.put("managed", p.managed());
        }
        o.put("updated_at", Times.iso(g.updatedAt()));
        return o;
    }

    /**
     * A pass's summary; {@code {"skipped": "disabled"}} when the command ran with {@code --no-tick},
     * {@code {"ran": false, "skipped": "not_needed"}} when the change needed none.
     */
    public static ObjectNode tick(TickSummary t) {
        ObjectNode o = Output.object();
        if (t == null) {
            o.put("ran", false);
            o.put("skipped", "not_needed");
            return o;
        }
        if (t.isDisabled()) {
            o.put("skipped", "disabled");
            return o;
        }
        o.put("ran", t.ran());
        o.put("skipped", t.skippedReason());
        o.put("nodes_up", t.nodesUp());
        o.put("nodes_down", t.nodesDown());
        o.put("nodes_ignored", t.nodesIgnored());
        ArrayNode finished = o.putArray("finished");
        for (TickSummary.Finished f : t.finished()) {
            ObjectNode x = finished.addObject();
            x.put("id", f.id());
            x.put("state", f.state());
            if (f.exitCode() != null) {
                x.put("exit_code", f.exitCode());
            }
        }
        ArrayNode dispatched = o.putArray("dispatched");
        for (TickSummary.Dispatched d : t.dispatched()) {
            ObjectNode x = dispatched.addObject();
            x.put("id", d.id());
            x.put("node", d.node());
            ArrayNode g = x.putArray("gpu_ids");
            d.gpuIds().forEach(g::add);
            if (d.lane() != null) {
                x.put("lane", d.lane());
            }
        }
        ArrayNode errors = o.putArray("errors");
        for (TickSummary.Problem p : t.errors()) {
            ObjectNode x = errors.addObject();
            x.put(p.subjectKey(), p.subject());
            x.put("error", p.error());
        }
        ArrayNode alerts = o.putArray("alerts");
        for (TickSummary.AlertRef a : t.alerts()) {
            ObjectNode x = alerts.addObject();
            x.put("id", a.id());
            x.put("kind", a.kind());
            x.put("title", a.title());
            x.put("job_id", a.jobId());
        }
        if (t.lockOwner() != null) {
            o.put("lock_owner", t.lockOwner());
        }
        if (!t.deliveries().isEmpty()) {
            ArrayNode deliveries = o.putArray("deliveries");
            for (TickSummary.Delivery d : t.deliveries()) {
                ObjectNode x = deliveries.addObject();
                x.put("alert_id", d.alertId());
                x.put("sink", d.sink());
                x.put("outcome", d.outcome());
                if (d.error() != null) {
                    x.put("error", d.error());
                }
            }
        }
        if (!t.held().isEmpty()) {
            ArrayNode held = o.putArray("held");
            for (TickSummary.Held h : t.held()) {
                ObjectNode x = held.addObject();
                x.put("id", h.id());
                x.put("reason", h.reason());
            }
        }
        return o;
    }

    /** Stored JSON text as a node; text that is somehow not JSON comes back as a string, never lost. */
    public static JsonNode parsed(String json) {
        if (json == null) {
            return NullNode.getInstance();
        }
        try {
            return Json.readTree(json);
        } catch (Exception e) {
            return TextNode.valueOf(json);
        }
    }

    public static ArrayNode longs(ArrayNode a, List<Long> values) {
        values.forEach(a::add);
        return a;
    }
}
