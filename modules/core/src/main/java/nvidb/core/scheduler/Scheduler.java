package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.model.GpuState;
import nvidb.core.model.Job;
import nvidb.core.model.JobState;
import nvidb.core.model.LaneRecord;
import nvidb.core.model.Lease;
import nvidb.core.model.NodeRecord;
import nvidb.core.model.TickSummary;
import nvidb.core.node.LaunchResult;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeProbeScript;
import nvidb.core.node.NodeReport;
import nvidb.core.node.NodeScripts;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.store.JobRepository.Changes;
import nvidb.core.store.JobRepository.Column;
import nvidb.core.store.OrphanRepository.Orphan;
import nvidb.core.store.Store;
import nvidb.core.util.Hostname;
import nvidb.core.util.Times;
import nvidb.spi.PluginKind;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * One scheduler pass ("tick"), guarded by the {@code scheduler} lease so that many clients
 * ticking at once make one pass, not several. Phases: refresh every node (probe, settle, reap,
 * rebuild budgets), enforce timeouts, gate dependencies, dispatch. Remote work of the refresh
 * runs in parallel, one thread per node, so a dead node costs one timeout; every database write
 * happens on the calling thread in small transactions that other clients may observe.
 */
public final class Scheduler {
    public static final String LEASE = "scheduler";
    static final String LAST_TICK = "last_tick_at";
    /** Seconds between TERM and KILL when a job is stopped. */
    static final int KILL_GRACE_SECONDS = 5;
    static final int TAIL_CHARS = 4000;

    private final Store store;
    private final QueueConfig config;
    private final PluginRegistry plugins;
    private final NodeConnections nodes;
    private final String owner;

    public Scheduler(Store store, QueueConfig config, PluginRegistry plugins, NodeConnections nodes) {
        this.store = store;
        this.config = config;
        this.plugins = plugins;
        this.nodes = nodes;
        this.owner = Hostname.get() + ":" + ProcessHandle.current().pid() + ":"
                + UUID.randomUUID().toString().replace("-", "");
    }

    public String owner() {
        return owner;
    }

    public Duration leaseTtl() {
        return Duration.ofSeconds(config.settings().effectiveLockTtl());
    }

    /**
     * Runs one pass. A non-forced pass is skipped when the last one finished less than
     * {@code tick_min_interval} ago; any pass is skipped when another client holds the lease.
     */
    public TickSummary tick(boolean force) {
        Instant now = Instant.now();
        if (!force && recentlyTicked(now)) {
            return TickSummary.skipped("rate_limited", null);
        }
        Optional<Lease> blocker = store.leases.acquire(LEASE, owner, leaseTtl(), now);
        if (blocker.isPresent()) {
            return TickSummary.skipped("locked", blocker.get().owner());
        }
        TickSummary summary = TickSummary.started();
        try {
            Map<String, String> homes = refreshNodes(summary);
            enforceTimeouts(summary);
            gateDependencies(summary);
            dispatch(summary, homes);
            store.db.write(() -> {
                store.meta.put(LAST_TICK, Times.iso(Times.now()));
                return null;
            });
        } finally {
            store.leases.release(LEASE, owner);
        }
        return summary;
    }

    private boolean recentlyTicked(Instant now) {
        Instant last = store.db.read(() -> store.meta.get(LAST_TICK).map(Times::parse).orElse(null));
        double min = config.settings().tickMinInterval();
        return last != null && Duration.between(last, now).toMillis() < min * 1000;
    }

    private Duration probeTimeout() {
        return Duration.ofSeconds(config.settings().probeTimeout());
    }

    private Duration launchTimeout() {
        return Duration.ofSeconds(config.settings().launchTimeout());
    }

    // ------------------------------------------------------------------ refresh

    /** What one node's worker thread brought back; applied to the database on the main thread. */
    private record Observation(NodeRecord node, List<Job> running, List<Job> staged, NodeReport report,
                               GpuReport gpus, String unreachable, Map<Long, Boolean> reaped) {
    }

    /**
     * Probes every node that matters and applies what it says. Returns each node reached, with
     * its {@code $HOME} (where relative job and spool roots live).
     */
    private Map<String, String> refreshNodes(TickSummary summary) {
        List<NodeRecord> all = store.db.read(store.nodes::all);
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        Set<String> withOrphans = store.db.read(() -> store.orphans().nodes());
        Map<String, LaneRecord> lanes = new HashMap<>();
        store.db.read(store.lanes::all).forEach(l -> lanes.put(l.name(), l));
        // Lane jobs handed to a runner: their run directories say whether the runner started them.
        Map<String, List<Job>> staged = new HashMap<>();
        for (Job j : store.db.read(store.jobs::staged)) {
            LaneRecord lane = lanes.get(j.lane());
            if (lane != null) {
                staged.computeIfAbsent(lane.node(), k -> new ArrayList<>()).add(j);
            }
        }
        Map<String, String> homes = new LinkedHashMap<>();
        List<NodeRecord> toProbe = new ArrayList<>();
        for (NodeRecord n : all) {
            if (n.ignored()) {
                summary.countNode(n.state(), true);
                continue;
            }
            boolean configured = nodes.server(n.name()).isPresent();
            boolean busy = running.stream().anyMatch(j -> n.name().equals(j.node())) || withOrphans.contains(n.name());
            if (!configured && !busy) {
                continue;
            }
            toProbe.add(n);
        }
        List<Observation> observations = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Observation>> futures = new ArrayList<>();
            for (NodeRecord n : toProbe) {
                List<Job> here = running.stream().filter(j -> n.name().equals(j.node())).toList();
                List<Orphan> orphans = withOrphans.contains(n.name())
                        ? store.db.read(() -> store.orphans().forNode(n.name())) : List.of();
                List<Job> handedOver = staged.getOrDefault(n.name(), List.of());
                futures.add(pool.submit(() -> observe(n, here, handedOver, orphans)));
            }
            for (Future<Observation> f : futures) {
                try {
                    observations.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while probing nodes", e);
                }
            }
        }
        for (Observation o : observations) {
            if (o.unreachable() != null) {
                markDown(o, summary);
            } else {
                apply(o, lanes, summary);
                homes.put(o.node().name(), o.report().home());
            }
            NodeRecord after = store.db.read(() -> store.nodes.find(o.node().name())).orElse(o.node());
            summary.countNode(after.state(), false);
        }
        return homes;
    }

    /** The remote part of a refresh: one probe round trip, then kills of this node's orphans. */
    private Observation observe(NodeRecord node, List<Job> running, List<Job> staged, List<Orphan> orphans) {
        if (nodes.server(node.name()).isEmpty()) {
            return new Observation(node, running, staged, null, null,
                    "node " + node.name() + " is no longer configured", Map.of());
        }
        try {
            NodeProbeScript probeScript = new NodeProbeScript();
            List<NodeProbeScript.JobDir> dirs = java.util.stream.Stream.concat(running.stream(), staged.stream())
                    .filter(j -> j.runDir() != null).map(j -> new NodeProbeScript.JobDir(j.id(), j.runDir())).toList();
            String script = probeScript.script(nodes.scriptProbe(node.name()).script(), dirs);
            ExecResult r = nodes.run(node.name(), script, probeTimeout(), true);
            NodeReport report;
            try {
                report = probeScript.parse(r.stdout());
            } catch (IllegalStateException e) {
                throw new TransportException("the probe of " + node.name() + " failed: " + firstLine(r.stderr(),
                        e.getMessage()));
            }
            GpuReport gpus;
            try {
                gpus = nodes.parseProbe(node.name(), report.kernel()).parse(report.gpuOutput());
            } catch (RuntimeException e) {
                gpus = GpuReport.failed("the GPU probe's answer could not be read: " + e.getMessage());
            }
            Map<Long, Boolean> reaped = new HashMap<>();
            for (Orphan o : orphans) {
                if (o.pid() == null || o.runDir() == null) {
                    reaped.put(o.id(), false);
                    continue;
                }
                reaped.put(o.id(), terminate(node.name(), o.runDir(), o.pid(), o.pgid()));
            }
            return new Observation(node, running, staged, report, gpus, null, reaped);
        } catch (TransportException e) {
            return new Observation(node, running, staged, null, null, e.getMessage(), Map.of());
        }
    }

    private static String firstLine(String text, String fallback) {
        String t = text == null ? "" : text.strip();
        return t.isEmpty() ? fallback : t.lines().findFirst().orElse(fallback);
    }

    private void markDown(Observation o, TickSummary summary) {
        NodeRecord n = o.node();
        Instant now = Times.now();
        String error = truncate(o.unreachable(), 300);
        store.db.write(() -> {
            store.nodes.markDown(n.name(), now, error);
            store.gpus.replace(n.name(), List.of());
            if (!"down".equals(n.state())) {
                store.events.append(now, "node_down", null, n.name(), truncate(o.unreachable(), 200), null);
                String title = n.name() + " is unreachable" + (o.running().isEmpty() ? ""
                        : "; " + o.running().size() + " running job(s) cannot be checked");
                long id = store.alerts.raise(now, "node_down", "error", null, n.name(), title, o.unreachable());
                summary.alerts().add(new TickSummary.AlertRef(id, "node_down", title, null));
            }
            return null;
        });
        summary.errors().add(new TickSummary.Problem("node", n.name(), error));
    }

    /** Settles this node's jobs from their directories, records its GPUs, marks it up. */
    private void apply(Observation o, Map<String, LaneRecord> lanes, TickSummary summary) {
        NodeRecord n = o.node();
        Instant now = Times.now();
        List<Job> stillRunning = new ArrayList<>();
        for (Job job : o.staged()) {
            NodeReport.JobDirState dir = o.report().jobs().get(job.id());
            if (dir == null || (dir.exitCode() == null && !dir.alive())) {
                continue; // not started yet, which is normal for a staged job
            }
            Long started = dir.startedAt() != null ? dir.startedAt() : dir.finishedAt();
            Job begun = runnerStarted(job, lanes.get(job.lane()), dir.pid(), dir.session() ? dir.pgid() : null,
                    started == null ? 0 : started, job.runDir(), summary);
            if (begun != null && !settle(begun, dir, now, summary)) {
                stillRunning.add(store.db.read(() -> store.jobs.find(job.id())).orElse(begun));
            }
        }
        for (Job job : o.running()) {
            NodeReport.JobDirState dir = o.report().jobs().get(job.id());
            if (dir == null) {
                stillRunning.add(job);
                continue;
            }
            if (!settle(job, dir, now, summary)) {
                stillRunning.add(store.db.read(() -> store.jobs.find(job.id())).orElse(job));
            }
        }
        Map<Integer, Capacity.ProcessInfo> ps = new HashMap<>();
        o.report().processes().forEach((pid, row) -> ps.put(pid, new Capacity.ProcessInfo(row.pgid(), row.user(),
                row.command())));
        Capacity.NodeCapacity capacity = Capacity.account(n.name(), o.gpus().gpus(), ps, stillRunning,
                config.settings().headroomMb(), now);
        store.db.write(() -> {
            store.gpus.replace(n.name(), capacity.gpus());
            for (Job j : stillRunning) {
                Long measured = capacity.measuredByJob().get(j.id());
                if (measured != null && !measured.equals(j.gpuMemMb() == null ? null : (long) j.gpuMemMb())) {
                    store.jobs.update(j.id(), Changes.of(Column.GPU_MEM_MB, measured.intValue()), now);
                }
            }
            store.nodes.markUp(n.name(), now, o.gpus().error() == null ? null : truncate(o.gpus().error(), 300),
                    o.gpus().gpus().size());
            if (!"up".equals(n.state())) {
                store.events.append(now, "node_up", null, n.name(),
                        n.name() + " is online (" + o.gpus().gpus().size() + " GPU)", null);
            }
            for (Map.Entry<Long, Boolean> r : o.reaped().entrySet()) {
                Orphan orphan = store.orphans().forNode(n.name()).stream().filter(x -> x.id() == r.getKey())
                        .findFirst().orElse(null);
                store.orphans().delete(r.getKey());
                if (r.getValue() && orphan != null) {
                    store.events.append(now, "job_reaped", orphan.jobId(), n.name(),
                            "killed a leftover process (" + orphan.reason() + ")", Map.of("pid", orphan.pid()));
                }
            }
            return null;
        });
    }

    /**
     * Applies what a running job's directory says. Returns true when the job left the running
     * state (finished, lost, or back to pending for a retry).
     */
    private boolean settle(Job job, NodeReport.JobDirState dir, Instant now, TickSummary summary) {
        return store.db.write(() -> {
            Job current = store.jobs.find(job.id()).orElse(null);
            if (current == null || current.state() != JobState.RUNNING) {
                return true; // cancelled or settled by another client meanwhile
            }
            Changes progress = new Changes();
            if (dir.status() != null && !dir.status().equals(current.progress())) {
                progress.set(Column.PROGRESS, dir.status()).set(Column.PROGRESS_AT, now);
            }
            if (dir.exitCode() != null) {
                finish(current, dir, progress, now, summary);
                return true;
            }
            if (dir.alive()) {
                progress.set(Column.HEARTBEAT_AT, now);
                if (dir.pid() != null && !dir.pid().equals(current.remotePid())) {
                    progress.set(Column.REMOTE_PID, dir.pid());
                }
                store.jobs.update(current.id(), progress, now);
                return false;
            }
            vanished(current, now, summary);
            return true;
        });
    }

    private void finish(Job job, NodeReport.JobDirState dir, Changes changes, Instant now, TickSummary summary) {
        if (dir.timedOutAfter() != null) {
            timedOutByRunner(job, dir, changes, now, summary);
            return;
        }
        int rc = dir.exitCode();
        JobState state = rc == 0 ? JobState.COMPLETED : JobState.FAILED;
        Instant finished = nodeTime(dir.finishedAt(), now);
        changes.set(Column.STATE, state).set(Column.EXIT_CODE, rc).set(Column.FINISHED_AT, finished)
                .set(Column.HEARTBEAT_AT, now);
        String result = resultJson(dir.result());
        if (result != null) {
            changes.set(Column.RESULT, result); // decisions.md §7: a job that wrote none keeps a value a client set
        }
        String tail = dir.outputTail() == null ? null : lastChars(dir.outputTail(), TAIL_CHARS);
        if (state == JobState.FAILED) {
            String last = tail == null ? "" : tail.strip().lines().reduce((a, b) -> b).orElse("");
            changes.set(Column.LAST_ERROR, "exit code " + rc + (last.isEmpty() ? "" : ": " + truncate(last, 200)));
        } else {
            changes.set(Column.LAST_ERROR, null);
        }
        store.jobs.update(job.id(), changes, now);
        store.events.append(now, "job_finished", job.id(), job.node(), state.label() + " (exit " + rc + ")",
                Map.of("exit_code", rc, "state", state.label()));
        summary.finished().add(new TickSummary.Finished(job.id(), state.label(), rc));
        if (state == JobState.FAILED) {
            String title = label(job) + " failed with exit code " + rc;
            long id = store.alerts.raise(now, "job_failed", "error", job.id(), job.node(), title, tail);
            summary.alerts().add(new TickSummary.AlertRef(id, "job_failed", title, job.id()));
        }
    }

    /** A lane runner stopped the job for overrunning: recorded as the controller records its own timeouts. */
    private void timedOutByRunner(Job job, NodeReport.JobDirState dir, Changes changes, Instant now,
                                  TickSummary summary) {
        long limit = dir.timedOutAfter();
        Instant finished = nodeTime(dir.finishedAt(), now);
        changes.set(Column.STATE, JobState.TIMEOUT).set(Column.EXIT_CODE, dir.exitCode()).set(Column.FINISHED_AT, finished)
                .set(Column.HEARTBEAT_AT, now).set(Column.LAST_ERROR, "exceeded max runtime of " + limit + "s");
        store.jobs.update(job.id(), changes, now);
        store.events.append(now, "job_timeout", job.id(), job.node(), "killed after " + limit + "s",
                Map.of("runner", true));
        String title = label(job) + " killed after " + limit + "s (limit " + limit + "s)";
        String tail = dir.outputTail() == null || dir.outputTail().isBlank() ? null : lastChars(dir.outputTail(), TAIL_CHARS);
        long id = store.alerts.raise(now, "job_timeout", "error", job.id(), job.node(), title, tail);
        summary.alerts().add(new TickSummary.AlertRef(id, "job_timeout", title, job.id()));
        summary.finished().add(new TickSummary.Finished(job.id(), JobState.TIMEOUT.label(), dir.exitCode()));
    }

    /**
     * A lane runner started this pending job (its state or the job's run directory says so): it
     * is running from now on, on the lane's node and cards, as if the scheduler had launched it.
     * Returns the job as it is now, or null when it is no longer pending (cancelled meanwhile:
     * the runner's report of it is then reaped by the sync).
     */
    Job runnerStarted(Job job, LaneRecord lane, Integer pid, Integer pgid, long startedEpoch, String runDir,
                      TickSummary summary) {
        if (lane == null || pid == null) {
            return null;
        }
        Instant now = Times.now();
        Instant started = nodeTime(startedEpoch, now);
        return store.db.write(() -> {
            Job current = store.jobs.find(job.id()).orElse(null);
            if (current == null || current.state() != JobState.PENDING) {
                return null;
            }
            int attempt = current.attempt() + 1;
            store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.RUNNING).set(Column.NODE, lane.node())
                    .set(Column.GPU_IDS, lane.gpuIds()).set(Column.REMOTE_PID, pid).set(Column.REMOTE_PGID, pgid)
                    .set(Column.RUN_DIR, runDir).set(Column.STARTED_AT, started).set(Column.HEARTBEAT_AT, now)
                    .set(Column.ATTEMPT, attempt).set(Column.LAST_ERROR, null).set(Column.EXIT_CODE, null)
                    .set(Column.FINISHED_AT, null), now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("pid", pid);
            data.put("gpu_ids", lane.gpuIds());
            data.put("vram_mb", current.vramMb());
            data.put("vram", nvidb.core.util.Sizes.format(current.vramMb()));
            data.put("lane", lane.name());
            data.put("runner", true);
            store.events.append(now, "job_started", job.id(), lane.node(), "pid " + pid + " on GPU "
                    + String.join(",", lane.gpuIds().stream().map(String::valueOf).toList()) + " (lane " + lane.name()
                    + ")", data);
            summary.dispatched().add(new TickSummary.Dispatched(job.id(), lane.node(), lane.gpuIds(), lane.name()));
            return store.jobs.find(job.id()).orElse(null);
        });
    }

    private void vanished(Job job, Instant now, TickSummary summary) {
        if (job.maxRetries() > 0 && job.attempt() <= job.maxRetries()) {
            store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.PENDING).set(Column.NODE, null)
                    .set(Column.GPU_IDS, List.of()).set(Column.REMOTE_PID, null).set(Column.REMOTE_PGID, null)
                    .set(Column.RUN_DIR, null).set(Column.STARTED_AT, null).set(Column.HEARTBEAT_AT, null)
                    .set(Column.PROGRESS, null).set(Column.PROGRESS_AT, null)
                    .set(Column.LAST_ERROR, "process vanished; retrying"), now);
            store.events.append(now, "job_requeued", job.id(), job.node(), "process vanished; retrying",
                    Map.of("attempt", job.attempt()));
            String title = label(job) + " vanished on " + job.node() + "; retrying (attempt " + (job.attempt() + 1)
                    + " of " + (job.maxRetries() + 1) + ")";
            long id = store.alerts.raise(now, "job_retried", "warning", job.id(), job.node(), title, null);
            summary.alerts().add(new TickSummary.AlertRef(id, "job_retried", title, job.id()));
            summary.finished().add(new TickSummary.Finished(job.id(), "pending", null));
            return;
        }
        store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.LOST).set(Column.FINISHED_AT, now)
                .set(Column.LAST_ERROR, "process vanished without an exit code"), now);
        store.events.append(now, "job_lost", job.id(), job.node(), "process vanished without an exit code", null);
        String title = label(job) + " was lost on " + job.node() + ": its process vanished without an exit code";
        long id = store.alerts.raise(now, "job_lost", "error", job.id(), job.node(), title, null);
        summary.alerts().add(new TickSummary.AlertRef(id, "job_lost", title, job.id()));
        summary.finished().add(new TickSummary.Finished(job.id(), JobState.LOST.label(), null));
    }

    /** result.json's text as stored JSON: empty is none, text that is not JSON is kept as {"raw": …}. */
    static String resultJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return nvidb.core.util.Json.write(nvidb.core.util.Json.readTree(text));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return nvidb.core.util.Json.write(Map.of("raw", lastChars(text, TAIL_CHARS)));
        }
    }

    /** A node's clock reading, unless it is absurd (unset, or a day away from ours). */
    private static Instant nodeTime(Long epoch, Instant now) {
        if (epoch == null || epoch <= 0 || Math.abs(epoch - now.getEpochSecond()) > 86_400) {
            return now;
        }
        return Instant.ofEpochSecond(epoch);
    }

    // ------------------------------------------------------------------ kills and timeouts

    /**
     * Stops a running job's process group on its node (TERM, KILL after the grace period).
     *
     * @return whether a signal was sent (false: the process was already gone)
     * @throws TransportException the node could not be reached; the caller records an orphan
     */
    public boolean terminate(String node, String runDir, int pid, Integer pgid) throws TransportException {
        ExecResult r = nodes.run(node, NodeScripts.terminate(runDir, pid, pgid, KILL_GRACE_SECONDS),
                Duration.ofSeconds(20), true);
        return r.stdout().contains("NVIDB_SIGNALLED=1");
    }

    private void enforceTimeouts(TickSummary summary) {
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        Instant now = Instant.now();
        for (Job job : running) {
            if (job.maxRuntimeS() == null || job.startedAt() == null
                    || Duration.between(job.startedAt(), now).getSeconds() <= job.maxRuntimeS()) {
                continue;
            }
            String tail = null;
            String orphanReason = null;
            try {
                if (job.remotePid() != null && job.runDir() != null) {
                    tail = nodes.run(job.node(), NodeScripts.tail(job.runDir(), "stderr.log", 25), Duration.ofSeconds(30),
                            true).stdout();
                    terminate(job.node(), job.runDir(), job.remotePid(), job.remotePgid());
                }
            } catch (TransportException e) {
                orphanReason = "timed out while unreachable";
            }
            String reason = orphanReason;
            String detail = tail == null || tail.isBlank() ? null : lastChars(tail, TAIL_CHARS);
            Instant at = Times.now();
            store.db.write(() -> {
                Job current = store.jobs.find(job.id()).orElse(null);
                if (current == null || current.state() != JobState.RUNNING) {
                    return null;
                }
                if (reason != null && current.remotePid() != null && current.runDir() != null) {
                    store.orphans().add(job.id(), job.node(), job.runDir(), job.remotePid(), job.remotePgid(), reason, at);
                }
                store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.TIMEOUT).set(Column.FINISHED_AT, at)
                        .set(Column.LAST_ERROR, "exceeded max runtime of " + job.maxRuntimeS() + "s"), at);
                store.events.append(at, "job_timeout", job.id(), job.node(), "killed after " + job.maxRuntimeS() + "s",
                        null);
                String title = label(job) + " killed after " + job.maxRuntimeS() + "s (limit " + job.maxRuntimeS() + "s)";
                long id = store.alerts.raise(at, "job_timeout", "error", job.id(), job.node(), title, detail);
                summary.alerts().add(new TickSummary.AlertRef(id, "job_timeout", title, job.id()));
                summary.finished().add(new TickSummary.Finished(job.id(), JobState.TIMEOUT.label(), null));
                return null;
            });
        }
    }

    // ------------------------------------------------------------------ dependencies

    /** Holds pending jobs whose dependencies died, and lets go of those whose reason went away. */
    private void gateDependencies(TickSummary summary) {
        store.db.write(() -> {
            List<Job> candidates = store.jobs.gateCandidates();
            Set<Long> depIds = new HashSet<>();
            for (Job j : candidates) {
                depIds.addAll(j.dependsOn());
                depIds.addAll(j.dependsAny());
            }
            Map<Long, Job> byId = new HashMap<>();
            for (Job d : store.jobs.byIds(depIds)) {
                byId.put(d.id(), d);
            }
            Instant now = Times.now();
            for (Job job : candidates) {
                DependencyGate.Outcome outcome = DependencyGate.evaluate(job, byId);
                if (outcome.verdict() == DependencyGate.Verdict.HELD) {
                    if (!outcome.holdReason().equals(job.heldReason())) {
                        hold(job, outcome.holdReason(), now, summary);
                    }
                } else if (job.held()) {
                    store.jobs.update(job.id(), Changes.of(Column.HELD_REASON, null), now);
                    store.events.append(now, "job_unheld", job.id(), null, "no longer held", null);
                }
            }
            return null;
        });
    }

    private void hold(Job job, String reason, Instant now, TickSummary summary) {
        store.jobs.update(job.id(), Changes.of(Column.HELD_REASON, reason), now);
        store.events.append(now, "job_held", job.id(), null, reason, Map.of("reason", reason));
        String title = label(job) + " is held: " + reason;
        String detail = "It stays pending and keeps its place. Release it with `nvidb job release " + job.id()
                + "`, repoint it with `nvidb job edit " + job.id() + " --add-after ID`, or cancel it with `nvidb job cancel "
                + job.id() + "`.";
        long alertId = store.alerts.raise(now, "job_held", "warning", job.id(), null, title, detail);
        summary.held().add(new TickSummary.Held(job.id(), reason));
        summary.alerts().add(new TickSummary.AlertRef(alertId, "job_held", title, job.id()));
    }

    // ------------------------------------------------------------------ dispatch

    private void dispatch(TickSummary summary, Map<String, String> homes) {
        List<Job> pending = new ArrayList<>(store.db.read(() -> store.jobs.inStates(List.of(JobState.PENDING))));
        boolean runnerLanes = store.db.read(() -> store.lanes.all().stream()
                .anyMatch(l -> l.runner() || l.runnerStateJson() != null));
        if (pending.isEmpty() && !runnerLanes) {
            return;
        }
        pending.sort(Dispatcher.ORDER);
        List<NodeRecord> nodeRows = store.db.read(store.nodes::all);
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        Map<Long, Job> byId = new HashMap<>();
        Set<Long> depIds = new HashSet<>();
        pending.forEach(j -> {
            depIds.addAll(j.dependsOn());
            depIds.addAll(j.dependsAny());
        });
        store.db.read(() -> store.jobs.byIds(depIds)).forEach(j -> byId.put(j.id(), j));
        List<GpuState> allGpus = store.db.read(() -> store.gpus.all(config.settings().headroomMb()));
        Dispatcher dispatcher = new Dispatcher(config.settings(), placementPolicy(), nodeRows, config.servers(),
                allGpus, running);
        if (runnerLanes) {
            // Lane jobs a runner takes are skipped below: the free pool never takes a lane job.
            new RunnerSync(store, config, nodes, this).run(summary, pending, byId, dispatcher, homes);
        }
        dispatchLanes(pending, running, byId, dispatcher, summary);
        for (Job job : pending) {
            if (job.lane() != null || job.held()) {
                continue; // lane jobs went first, in lane order; held jobs wait for a person
            }
            if (DependencyGate.evaluate(job, byId).verdict() != DependencyGate.Verdict.READY) {
                continue;
            }
            Optional<String> impossible = dispatcher.unschedulable(job);
            if (impossible.isPresent()) {
                failUnschedulable(job, impossible.get(), summary);
                continue;
            }
            launchSomewhere(job, dispatcher, summary);
        }
    }

    /**
     * Lanes whose runner is off: the controller starts each lane's head itself, in lane order,
     * once nothing of it runs (up to its concurrency) and its cards have room. A lane never steps
     * over its head: a held or waiting head, a paused lane or a full card stops the whole lane.
     * (Lanes with a runner on were supplied by {@link RunnerSync} before this.)
     */
    private void dispatchLanes(List<Job> pending, List<Job> running, Map<Long, Job> byId, Dispatcher dispatcher,
                               TickSummary summary) {
        Map<String, List<Job>> queues = new LinkedHashMap<>();
        pending.stream().filter(j -> j.lane() != null)
                .sorted(Job.LANE_ORDER)
                .forEach(j -> queues.computeIfAbsent(j.lane(), k -> new ArrayList<>()).add(j));
        for (Map.Entry<String, List<Job>> e : queues.entrySet()) {
            var lane = store.db.read(() -> store.lanes.find(e.getKey())).orElse(null);
            if (lane == null || lane.paused() || lane.runner()) {
                continue;
            }
            long busy = running.stream().filter(j -> e.getKey().equals(j.lane())).count();
            for (Job head : e.getValue()) {
                if (busy >= lane.concurrency() || head.held()
                        || DependencyGate.evaluate(head, byId).verdict() != DependencyGate.Verdict.READY) {
                    break;
                }
                Optional<Dispatcher.Choice> choice = dispatcher.chooseExact(head, lane.node(), lane.gpuIds());
                if (choice.isEmpty() || !launchOn(head, choice.get(), dispatcher, summary)) {
                    break;
                }
                busy++;
            }
        }
    }

    /** Launches a job on one given place; true when it started. */
    private boolean launchOn(Job job, Dispatcher.Choice c, Dispatcher dispatcher, TickSummary summary) {
        int attempt = job.attempt() + 1;
        LaunchResult result;
        try {
            result = launch(job, c, attempt);
        } catch (TransportException e) {
            launchFailed(job, c.node() + ": " + e.getMessage(), summary);
            return false;
        }
        if (!result.started()) {
            launchFailed(job, c.node() + ": " + result.error(), summary);
            return false;
        }
        started(job, c, result, attempt, summary);
        dispatcher.charge(job, c);
        return true;
    }

    /** One launch round trip: starts the job detached at the chosen place (or adopts it there). */
    private LaunchResult launch(Job job, Dispatcher.Choice c, int attempt) throws TransportException {
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job, c.node(), nodes.jobRoot(c.node()), c.gpuIds(),
                attempt);
        ExecResult r = nodes.run(c.node(), NodeScripts.launch(spec), launchTimeout(), true);
        return LaunchResult.parse(r.stdout(), r.stderr());
    }

    private PlacementPolicy placementPolicy() {
        return plugins.require(PlacementPolicyFactory.class, PluginKind.PLACEMENT, config.settings().placement()).create();
    }

    private void launchSomewhere(Job job, Dispatcher dispatcher, TickSummary summary) {
        Set<String> excluded = new HashSet<>();
        List<String> errors = new ArrayList<>();
        while (true) {
            Optional<Dispatcher.Choice> choice = dispatcher.choose(job, excluded);
            if (choice.isEmpty()) {
                break;
            }
            Dispatcher.Choice c = choice.get();
            int attempt = job.attempt() + 1;
            LaunchResult result;
            try {
                result = launch(job, c, attempt);
            } catch (TransportException e) {
                // The process may exist: do not try another node now; the next pass adopts it if it runs.
                errors.add(c.node() + ": " + e.getMessage());
                break;
            }
            if (!result.started()) {
                errors.add(c.node() + ": " + result.error());
                excluded.add(c.node());
                continue;
            }
            started(job, c, result, attempt, summary);
            dispatcher.charge(job, c);
            return;
        }
        if (!errors.isEmpty()) {
            launchFailed(job, String.join("; ", errors), summary);
        }
    }

    private void started(Job job, Dispatcher.Choice c, LaunchResult r, int attempt, TickSummary summary) {
        Instant now = Times.now();
        store.db.write(() -> {
            store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.RUNNING).set(Column.NODE, c.node())
                    .set(Column.GPU_IDS, c.gpuIds()).set(Column.REMOTE_PID, r.pid()).set(Column.REMOTE_PGID, r.pgid())
                    .set(Column.RUN_DIR, r.runDir()).set(Column.STARTED_AT, now).set(Column.HEARTBEAT_AT, now)
                    .set(Column.ATTEMPT, attempt).set(Column.LAST_ERROR, null).set(Column.EXIT_CODE, null)
                    .set(Column.FINISHED_AT, null), now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("pid", r.pid());
            data.put("gpu_ids", c.gpuIds());
            data.put("vram_mb", job.vramMb());
            data.put("vram", nvidb.core.util.Sizes.format(job.vramMb()));
            data.put("adopted", r.adopted());
            store.events.append(now, "job_started", job.id(), c.node(), "pid " + r.pid() + " on GPU "
                    + (c.gpuIds().isEmpty() ? "-" : c.gpuIds().toString()), data);
            return null;
        });
        summary.dispatched().add(new TickSummary.Dispatched(job.id(), c.node(), c.gpuIds(), job.lane()));
    }

    private void launchFailed(Job job, String errors, TickSummary summary) {
        String message = truncate("launch failed: " + errors, 500);
        if (message.equals(job.lastError())) {
            return; // one alert per persistent fault
        }
        Instant now = Times.now();
        store.db.write(() -> {
            store.jobs.update(job.id(), Changes.of(Column.LAST_ERROR, message), now);
            store.events.append(now, "job_failed", job.id(), null, message, null);
            String title = label(job) + " could not be started: " + truncate(errors, 120);
            long id = store.alerts.raise(now, "launch_failed", "warning", job.id(), null, title, message);
            summary.alerts().add(new TickSummary.AlertRef(id, "launch_failed", title, job.id()));
            return null;
        });
        summary.errors().add(new TickSummary.Problem("job", String.valueOf(job.id()), message));
    }

    void failUnschedulable(Job job, String reason, TickSummary summary) {
        Instant now = Times.now();
        store.db.write(() -> {
            store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.FAILED).set(Column.FINISHED_AT, now)
                    .set(Column.LAST_ERROR, reason), now);
            store.events.append(now, "job_failed", job.id(), null, reason, null);
            String title = label(job) + " can never run: " + reason;
            long id = store.alerts.raise(now, "job_unschedulable", "error", job.id(), null, title, reason);
            summary.alerts().add(new TickSummary.AlertRef(id, "job_unschedulable", title, job.id()));
            return null;
        });
        summary.finished().add(new TickSummary.Finished(job.id(), JobState.FAILED.label(), null));
    }

    // ------------------------------------------------------------------ helpers

    static String label(Job job) {
        return "job " + job.id() + (job.name().isEmpty() ? "" : " (" + job.name() + ")");
    }

    static String truncate(String s, int n) {
        if (s == null) {
            return null;
        }
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    static String lastChars(String s, int n) {
        return s.length() <= n ? s : s.substring(s.length() - n);
    }

}
