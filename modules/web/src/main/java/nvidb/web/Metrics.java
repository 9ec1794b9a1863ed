package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Alert;
import nvidb.core.api.Caller;
import nvidb.core.api.GpuState;
import nvidb.core.api.History;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.NodeState;
import nvidb.core.app.Application;
import nvidb.core.app.UsageReport;

/**
 * {@code GET /metrics}: the Prometheus text exposition format (version 0.0.4), read from the
 * database in one go. Memory in bytes and times in seconds, as Prometheus names want them.
 */
final class Metrics {
    private static final long MIB = 1024L * 1024;

    private Metrics() {
    }

    static void send(HttpExchange ex, Pool pool) throws IOException {
        String text = pool.with(Metrics::render);
        Http.send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    static String render(Application app, Caller caller) {
        Text t = new Text();
        List<NodeAdmin.NodeView> nodes = app.nodeViews(caller, false);
        t.help("nvidb_node_up", "gauge", "1 when the node answered the last probe, 0 when it is down or unknown");
        for (NodeAdmin.NodeView v : nodes) {
            t.sample("nvidb_node_up", Map.of("node", v.node().name()), v.node().state() == NodeState.UP ? 1 : 0);
        }
        t.help("nvidb_gpu_memory_bytes", "gauge", "GPU memory by kind: total, used (the driver's), external"
                + " (processes the queue did not start), queue (measured on the queue's own jobs), reserved (the queue's"
                + " promises), free (what the queue may still place)");
        for (NodeAdmin.NodeView v : nodes) {
            for (GpuState g : v.gpus()) {
                Map<String, String> l = Map.of("node", g.node(), "gpu", String.valueOf(g.index()));
                memory(t, l, "total", g.memTotalMb());
                memory(t, l, "used", g.memUsedMb());
                memory(t, l, "external", (int) g.externalMemMb());
                // What the queue's jobs really use, beside what it promised them: a dashboard shows both.
                memory(t, l, "queue", (int) g.queueMemMb());
                memory(t, l, "reserved", (int) g.reservedMb());
                memory(t, l, "free", (int) g.freeMb());
            }
        }
        gpuGauge(t, nodes, "nvidb_gpu_utilization_ratio", "GPU utilisation as the driver reports it (0 to 1)", true);
        gpuGauge(t, nodes, "nvidb_gpu_temperature_celsius", "GPU temperature", false);
        t.help("nvidb_jobs", "gauge", "jobs by state");
        Map<String, Long> counts = app.counts(caller);
        for (JobState s : JobState.values()) {
            t.sample("nvidb_jobs", Map.of("state", s.label()), counts.getOrDefault(s.label(), 0L));
        }
        t.help("nvidb_jobs_idle", "gauge", "running jobs whose GPUs have sat idle for queue.idle_after");
        t.sample("nvidb_jobs_idle", Map.of(), app.idleJobs(caller));
        users(t, app.userLoads(caller));
        List<History.QueueSample> recent = app.queueSamples(caller, History.Range.HOUR);
        t.help("nvidb_oldest_pending_seconds", "gauge", "how long the oldest pending job had waited at the last pass");
        t.sample("nvidb_oldest_pending_seconds", Map.of(), recent.isEmpty() ? 0 : recent.getLast().oldestWaitS());
        long ms = app.lastTickMillis();
        t.help("nvidb_last_pass_duration_seconds", "gauge", "how long the last scheduler pass took");
        t.sample("nvidb_last_pass_duration_seconds", Map.of(), ms < 0 ? 0 : ms / 1000.0);
        Instant last = app.lastTickAt();
        t.help("nvidb_last_pass_timestamp_seconds", "gauge", "when the last scheduler pass finished (Unix time)");
        t.sample("nvidb_last_pass_timestamp_seconds", Map.of(), last == null ? 0 : last.getEpochSecond());
        JobQueries.AlertPage alerts = app.alertPage(caller, true, 1000);
        t.help("nvidb_alerts_open", "gauge", "alerts not yet acknowledged");
        t.sample("nvidb_alerts_open", Map.of(), alerts.open());
        long failing = 0;
        for (Alert a : alerts.alerts()) {
            failing += a.deliveries().stream().filter(d -> d.state().equals("retrying")).count();
        }
        t.help("nvidb_alert_deliveries_failed", "gauge", "deliveries of the newest 1,000 alerts that failed and wait"
                + " for a retry");
        t.sample("nvidb_alert_deliveries_failed", Map.of(), failing);
        return t.toString();
    }

    /** Per user (jobs from before accounts were recorded under user=""): GPUs now, GPU-seconds ever. */
    private static void users(Text t, List<UsageReport.UserLoad> users) {
        t.help("nvidb_user_running_gpus", "gauge", "GPUs held by the user's running jobs");
        for (UsageReport.UserLoad u : users) {
            t.sample("nvidb_user_running_gpus", Map.of("user", u.user() == null ? "" : u.user()), u.runningGpus());
        }
        t.help("nvidb_user_gpu_seconds_total", "counter", "GPU-seconds of the user's jobs, every run the queue holds"
                + " (a running job up to now; a purge takes its jobs' away)");
        for (UsageReport.UserLoad u : users) {
            t.sample("nvidb_user_gpu_seconds_total", Map.of("user", u.user() == null ? "" : u.user()), u.gpuSeconds());
        }
    }

    private static void memory(Text t, Map<String, String> labels, String kind, Integer mib) {
        if (mib != null) {
            Map<String, String> l = new java.util.TreeMap<>(labels);
            l.put("kind", kind);
            t.sample("nvidb_gpu_memory_bytes", l, (double) mib * MIB);
        }
    }

    private static void gpuGauge(Text t, List<NodeAdmin.NodeView> nodes, String name, String help, boolean util) {
        t.help(name, "gauge", help);
        for (NodeAdmin.NodeView v : nodes) {
            for (GpuState g : v.gpus()) {
                Integer value = util ? g.utilPercent() : g.temperatureC();
                if (value != null) {
                    t.sample(name, Map.of("node", g.node(), "gpu", String.valueOf(g.index())), util ? value / 100.0 : value);
                }
            }
        }
    }

    /** The exposition text: HELP and TYPE once per name, label values escaped as the format says. */
    private static final class Text {
        private final StringBuilder out = new StringBuilder();

        void help(String name, String type, String help) {
            out.append("# HELP ").append(name).append(' ').append(help).append('\n');
            out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        }

        void sample(String name, Map<String, String> labels, double value) {
            out.append(name);
            if (!labels.isEmpty()) {
                out.append('{');
                String sep = "";
                for (Map.Entry<String, String> l : new java.util.TreeMap<>(labels).entrySet()) {
                    out.append(sep).append(l.getKey()).append("=\"").append(escape(l.getValue())).append('"');
                    sep = ",";
                }
                out.append('}');
            }
            out.append(' ');
            out.append(value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value) : String.valueOf(value));
            out.append('\n');
        }

        private static String escape(String s) {
            return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }

}
