package nvidb.core.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.error.NvidbException;
import nvidb.core.model.Alert;
import nvidb.core.model.Event;
import nvidb.core.model.Job;
import nvidb.core.model.JobState;
import nvidb.core.model.Lease;
import nvidb.core.model.NodeRecord;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.node.NodeConnections;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.JobRepository;
import nvidb.core.store.JobRepository.Changes;
import nvidb.core.store.JobRepository.Column;
import nvidb.core.util.Json;
import nvidb.core.model.TickSummary;
import nvidb.core.store.Store;
import nvidb.core.util.Hostname;
import nvidb.core.util.Sizes;
import nvidb.core.util.Times;
import nvidb.spi.transport.TransportException;

/**
 * The one door from the command line into the queue. Each method is one user-visible operation:
 * it validates, writes in one transaction, and says what happened. Commands stay thin by
 * handing everything here.
 */
public final class QueueService implements AutoCloseable {
    private static final Pattern ENV_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Duration OPERATION_LEASE_WAIT = Duration.ofSeconds(10);
    static final String NODES_SIGNATURE = "nodes_signature";

    private final NvidbPaths paths;
    private final QueueConfig config;
    private final PluginRegistry plugins;
    private final Map<String, String> env;
    private final Store store;
    private final NodeConnections nodes;
    private final Scheduler scheduler;

    private QueueService(NvidbPaths paths, QueueConfig config, PluginRegistry plugins, Map<String, String> env,
                         Store store) {
        this.paths = paths;
        this.config = config;
        this.plugins = plugins;
        this.env = env;
        this.store = store;
        this.nodes = new NodeConnections(config, plugins);
        this.scheduler = new Scheduler(store, config, plugins, nodes);
    }

    public static QueueService open(NvidbPaths paths, QueueConfig config, PluginRegistry plugins,
                                    Map<String, String> env) {
        Store store = Store.open(paths.database());
        QueueService service = new QueueService(paths, config, plugins, env, store);
        try {
            service.syncConfiguredNodes();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return service;
    }

    public NvidbPaths paths() {
        return paths;
    }

    public QueueConfig config() {
        return config;
    }

    public PluginRegistry plugins() {
        return plugins;
    }

    /** Records the configured servers as nodes; written only when the configuration changed. */
    private void syncConfiguredNodes() {
        String signature = Json.write(config.servers().stream()
                .map(s -> List.of(s.name(), String.valueOf(s.hostname()), s.port(), String.valueOf(s.username())))
                .toList());
        String stored = store.db.read(() -> store.meta.get(NODES_SIGNATURE).orElse(null));
        if (signature.equals(stored)) {
            return;
        }
        store.db.write(() -> {
            int i = 0;
            for (ServerConfig s : config.servers()) {
                store.nodes.upsertConfigured(s.name(), s.hostname(), s.port(), s.username(), i++);
            }
            store.meta.put(NODES_SIGNATURE, signature);
            return null;
        });
    }

    // ---------------------------------------------------------------- ticks

    /** How a command refreshes before or after it works. */
    public enum TickMode { AUTO, FORCE, NONE }

    public TickSummary tick(TickMode mode) {
        return switch (mode) {
            case NONE -> TickSummary.disabled();
            case AUTO -> scheduler.tick(false);
            case FORCE -> scheduler.tick(true);
        };
    }

    public Optional<Lease> tickLease() {
        return store.db.read(() -> store.leases.get(Scheduler.LEASE));
    }

    public Instant lastTickAt() {
        return store.db.read(() -> store.meta.get("last_tick_at").map(Times::parse).orElse(null));
    }

    // ---------------------------------------------------------------- submit

    public record Submitted(Job job, boolean duplicate, TickSummary tick) {
    }

    public Submitted submit(SubmitRequest r, TickMode after) {
        if (r.command() == null || r.command().isBlank()) {
            throw NvidbException.usage("nothing to run: pass a command after --, or --script FILE");
        }
        if (r.gpus() < 0) {
            throw NvidbException.usage("--gpus cannot be negative (use 0 for CPU-only work)");
        }
        if (r.timeoutSeconds() != null && r.timeoutSeconds() <= 0) {
            throw NvidbException.usage("--timeout must be a positive number of seconds, not " + r.timeoutSeconds());
        }
        if (r.retries() < 0) {
            throw NvidbException.usage("--retries cannot be negative, not " + r.retries());
        }
        for (String key : r.env().keySet()) {
            if (!ENV_KEY.matcher(key).matches()) {
                throw NvidbException.usage("--env name '" + key + "' is not a valid variable name "
                        + "(letters, digits and _, not starting with a digit)");
            }
        }
        if (r.idempotencyKey() != null && r.idempotencyKey().isBlank()) {
            throw NvidbException.usage("--idempotency-key must not be empty");
        }
        long vram = r.vram() == null ? config.settings().defaultVramMb() : Sizes.parseMb(r.vram());
        String submitter = r.submitter() != null && !r.submitter().isBlank() ? r.submitter() : defaultSubmitter();

        Submitted created = store.db.write(() -> {
            if (r.idempotencyKey() != null) {
                Optional<Job> existing = store.jobs.findByIdempotencyKey(r.idempotencyKey());
                if (existing.isPresent()) {
                    return new Submitted(existing.get(), true, null);
                }
            }
            String node = r.node() == null ? null : resolveSubmitNode(r.node());
            String lane = null;
            Long laneSeq = null;
            if (r.lane() != null) {
                Lanes.Resolved resolved = lanes().resolveOrCreate(r.lane());
                if (node != null && !node.equals(resolved.node())) {
                    throw NvidbException.usage("lane '" + resolved.name() + "' is on '" + resolved.node()
                            + "', but --node asked for '" + node + "'");
                }
                if (r.gpus() != resolved.gpuIds().size()) {
                    throw NvidbException.usage("the job needs " + r.gpus() + " GPU(s) but lane '" + resolved.name()
                            + "' has " + resolved.gpuIds().size() + "; pass --gpus " + resolved.gpuIds().size());
                }
                lane = resolved.name();
                node = resolved.node();
                laneSeq = store.lanes.nextSeq(lane);
            } else if (r.at() != null) {
                throw NvidbException.usage("--at places a job within a lane; pass --lane NODE:GPU too");
            }
            requireJobsExist(r.after());
            requireJobsExist(r.afterAny());
            Instant now = Times.now();
            long id = store.jobs.insert(new JobRepository.NewJob(r.name() == null ? "" : r.name(), r.command(),
                    r.workdir(), new LinkedHashMap<>(r.env()), r.priority(), r.gpus(), vram, node, r.after(),
                    r.afterAny(), r.timeoutSeconds(), submitter, r.tags(), lane, laneSeq, r.retries(), blankToNull(r.note()),
                    r.idempotencyKey()), now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("gpus", r.gpus());
            data.put("vram_mb", vram);
            data.put("node", node);
            data.put("lane", lane);
            data.put("submitter", submitter);
            String label = r.name() != null && !r.name().isEmpty() ? r.name() : truncate(r.command(), 80);
            store.events.append(now, "job_submitted", id, node, label, data);
            if (lane != null && r.at() != null) {
                lanes().move(id, lane, r.at(), now);
            }
            return new Submitted(store.jobs.find(id).orElseThrow(), false, null);
        });
        if (created.duplicate()) {
            return new Submitted(created.job(), true, TickSummary.disabled());
        }
        TickSummary tick = tick(after == TickMode.AUTO ? TickMode.FORCE : after);
        return new Submitted(job(created.job().id()), false, tick);
    }

    private Lanes lanes() {
        return new Lanes(store, this::resolveKnownNode);
    }

    private String defaultSubmitter() {
        String s = env.get("NVIDB_SUBMITTER");
        if (s != null && !s.isBlank()) {
            return s;
        }
        String user = env.getOrDefault("USER", System.getProperty("user.name"));
        return user + "@" + Hostname.get() + ":" + ProcessHandle.current().pid();
    }

    private String resolveSubmitNode(String typed) {
        String name = resolveKnownNode(typed);
        boolean configured = config.servers().stream().anyMatch(s -> s.name().equals(name));
        if (!configured) {
            throw NvidbException.usage("node '" + name + "' is no longer configured; add it back to servers: "
                    + "or pick another node");
        }
        NodeRecord node = store.nodes.find(name).orElseThrow();
        if (node.ignored()) {
            throw NvidbException.usage("node '" + name + "' is ignored; run `nvidb queue unignore " + name
                    + "` before submitting to it");
        }
        return name;
    }

    /** Resolves a typed node name against every node the database knows. */
    public String resolveKnownNode(String typed) {
        List<String> names = store.db.read(() -> store.nodes.all().stream().map(NodeRecord::name).toList());
        return NodeNames.resolve(typed, names, "node");
    }

    private void requireJobsExist(List<Long> ids) {
        Set<Long> found = new HashSet<>();
        store.jobs.byIds(new LinkedHashSet<>(ids)).forEach(j -> found.add(j.id()));
        for (long id : ids) {
            if (!found.contains(id)) {
                throw NvidbException.notFound("dependency job " + id + " does not exist");
            }
        }
    }

    // ---------------------------------------------------------------- reading jobs

    public Job job(long id) {
        return store.db.read(() -> store.jobs.find(id))
                .orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
    }

    public record JobPage(List<Job> jobs, int limit) {
    }

    public JobPage jobs(JobQuery q) {
        String node = q.node() == null ? null : resolveKnownNode(q.node());
        Set<JobState> states = q.states();
        return new JobPage(store.db.read(() -> store.jobs.search(states, q.held(), node, q.tag(), q.limit())), q.limit());
    }

    public List<Job> jobsById(List<Long> ids) {
        return store.db.read(() -> store.jobs.byIds(ids));
    }

    public record JobDetail(Job job, List<Event> events) {
    }

    public JobDetail show(long id) {
        Job job = job(id);
        return new JobDetail(job, store.db.read(() -> store.events.newest(id, 50)));
    }

    // ---------------------------------------------------------------- notes, result, priority

    public Job setNote(long id, String text, boolean append) {
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            String value = text;
            if (append && job.notes() != null && !job.notes().isEmpty()) {
                value = job.notes() + " | " + text;
            }
            store.jobs.update(id, Changes.of(Column.NOTES, blankToNull(value)), Times.now());
            return store.jobs.find(id).orElseThrow();
        });
    }

    /** Stores any JSON value as the job's result; text that is not JSON is refused. */
    public Job setResult(long id, String json) {
        JsonNode parsed;
        try {
            parsed = Json.readTree(json);
        } catch (JsonProcessingException e) {
            parsed = null;
        }
        if (parsed == null || parsed.isMissingNode()) {
            throw NvidbException.usage("--set needs a JSON value, such as '{\"acc\": 0.9}', '42' or '\"a string\"' "
                    + "(a string keeps its quotes); got: " + truncate(json, 60));
        }
        String canonical = Json.write(parsed);
        return store.db.write(() -> {
            store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            store.jobs.update(id, Changes.of(Column.RESULT, canonical), Times.now());
            return store.jobs.find(id).orElseThrow();
        });
    }

    /** Sets ({@code 5}) or adjusts ({@code +1}, {@code -2}) a job's priority. */
    public Job setPriority(long id, String value) {
        String v = value.strip();
        boolean relative = v.startsWith("+") || v.startsWith("-");
        int n;
        try {
            n = Integer.parseInt(v.startsWith("+") ? v.substring(1) : v);
        } catch (NumberFormatException e) {
            throw NvidbException.usage("invalid priority '" + value + "' (use 5, +1, or -2)");
        }
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state().terminal()) {
                throw NvidbException.conflict("job " + id + " is " + job.state().label()
                        + "; its priority no longer matters");
            }
            int next = relative ? job.priority() + n : n;
            if (next != job.priority()) {
                Instant now = Times.now();
                store.jobs.update(id, Changes.of(Column.PRIORITY, next), now);
                store.events.append(now, "job_priority", id, null, "priority " + job.priority() + " -> " + next, null);
            }
            return store.jobs.find(id).orElseThrow();
        });
    }

    public record Moved(long id, boolean moved, int priority, int slot) {
    }

    /**
     * Moves a pending job (not in a lane) {@code slots} places earlier (positive) or later
     * (negative) in dispatch order, by lowering the priorities of the jobs it passes: priorities
     * never rise, so no other job jumps ahead of work it was behind.
     */
    public Moved movePriority(long id, int slots) {
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state() != JobState.PENDING || job.lane() != null) {
                throw NvidbException.conflict("job " + id + " is " + (job.lane() != null ? "in lane " + job.lane()
                        + "; reorder it with `nvidb queue lane " + job.lane() + " move`" : job.state().label())
                        + "; only pending jobs outside lanes move in the dispatch order");
            }
            List<Job> order = new ArrayList<>(store.jobs.inStates(List.of(JobState.PENDING)).stream()
                    .filter(j -> j.lane() == null).toList());
            order.sort(nvidb.core.scheduler.Dispatcher.ORDER);
            int from = indexOf(order, id);
            int to = Math.max(0, Math.min(order.size() - 1, from - slots));
            if (to == from) {
                return new Moved(id, false, job.priority(), from + 1);
            }
            Job moving = order.remove(from);
            order.add(to, moving);
            Instant now = Times.now();
            int[] priorities = order.stream().mapToInt(Job::priority).toArray();
            for (int i = 1; i < order.size(); i++) {
                Job prev = order.get(i - 1);
                Job cur = order.get(i);
                boolean strictlyAfter = priorities[i] < priorities[i - 1]
                        || (priorities[i] == priorities[i - 1] && cur.id() > prev.id());
                if (!strictlyAfter) {
                    priorities[i] = cur.id() > prev.id() ? priorities[i - 1] : priorities[i - 1] - 1;
                }
            }
            for (int i = 0; i < order.size(); i++) {
                Job j = order.get(i);
                if (priorities[i] != j.priority()) {
                    store.jobs.update(j.id(), Changes.of(Column.PRIORITY, priorities[i]), now);
                }
            }
            store.events.append(now, "job_priority", id, null,
                    "moved " + (slots > 0 ? "up" : "down") + " to slot " + (to + 1), null);
            return new Moved(id, true, priorities[to], to + 1);
        });
    }


    private static int indexOf(List<Job> jobs, long id) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- dependencies

    public record Edited(Job job, boolean changed, TickSummary tick) {
    }

    public Edited editDependencies(long id, List<Long> addAfter, List<Long> dropAfter, List<Long> addAny,
                                   List<Long> dropAny, TickMode after) {
        if (addAfter.isEmpty() && dropAfter.isEmpty() && addAny.isEmpty() && dropAny.isEmpty()) {
            throw NvidbException.usage("nothing to change (pass --add-after, --drop-after, --add-after-any or --drop-after-any)");
        }
        boolean changed = store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state().terminal()) {
                throw NvidbException.conflict("job " + id + " already finished as " + job.state().label()
                        + "; its dependencies no longer decide anything");
            }
            List<Long> on = applyEdit(job.dependsOn(), dropAfter, addAfter);
            List<Long> any = applyEdit(job.dependsAny(), dropAny, addAny);
            for (long dep : concat(addAfter, addAny)) {
                if (dep == id) {
                    throw NvidbException.usage("a job cannot depend on itself (job " + id + ")");
                }
            }
            requireJobsExist(concat(addAfter, addAny));
            for (long dep : concat(addAfter, addAny)) {
                if (reaches(dep, id)) {
                    throw NvidbException.conflict("job " + dep + " already waits on job " + id
                            + "; that dependency would deadlock both");
                }
            }
            if (on.equals(job.dependsOn()) && any.equals(job.dependsAny())) {
                return false;
            }
            Instant now = Times.now();
            store.jobs.update(id, new Changes().set(Column.DEPENDS_ON, on).set(Column.DEPENDS_ANY, any)
                    .set(Column.HELD_REASON, null), now);
            store.events.append(now, "job_dependencies", id, null, "after=" + csv(on) + " after-any=" + csv(any), null);
            return true;
        });
        TickSummary tick = changed ? tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled();
        return new Edited(job(id), changed, tick);
    }

    private static List<Long> applyEdit(List<Long> current, List<Long> drop, List<Long> add) {
        List<Long> out = new ArrayList<>(current);
        out.removeIf(drop::contains);
        for (long a : add) {
            if (!out.contains(a)) {
                out.add(a);
            }
        }
        return out;
    }

    /** Whether {@code from} reaches {@code target} through any chain of dependencies. */
    private boolean reaches(long from, long target) {
        Deque<Long> todo = new ArrayDeque<>(List.of(from));
        Set<Long> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            long cur = todo.pop();
            if (cur == target) {
                return true;
            }
            if (!seen.add(cur)) {
                continue;
            }
            Optional<Job> j = store.jobs.find(cur);
            if (j.isPresent()) {
                todo.addAll(j.get().dependsOn());
                todo.addAll(j.get().dependsAny());
            }
        }
        return false;
    }

    public record Released(long id, boolean released, String reason, List<Long> dropped) {
    }

    public record ReleaseResult(List<Released> results, TickSummary tick) {
    }

    public ReleaseResult release(List<Long> ids, TickMode after) {
        List<Released> results = new ArrayList<>();
        for (long id : ids) {
            results.add(store.db.write(() -> releaseOne(id)));
        }
        boolean any = results.stream().anyMatch(Released::released);
        return new ReleaseResult(results, any ? tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled());
    }

    private Released releaseOne(long id) {
        Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
        if (job.state().terminal()) {
            return new Released(id, false, "job " + id + " already finished as " + job.state().label(), List.of());
        }
        List<Long> dead = new ArrayList<>();
        Map<Long, Job> deps = new LinkedHashMap<>();
        store.jobs.byIds(job.dependsOn()).forEach(d -> deps.put(d.id(), d));
        for (long dep : job.dependsOn()) {
            Job d = deps.get(dep);
            if ((d == null || (d.state().terminal() && d.state() != JobState.COMPLETED)) && !dead.contains(dep)) {
                dead.add(dep);
            }
        }
        if (dead.isEmpty() && !job.held()) {
            return new Released(id, false, "job " + id + " is not held", List.of());
        }
        List<Long> kept = new ArrayList<>(job.dependsOn());
        kept.removeAll(dead);
        Instant now = Times.now();
        store.jobs.update(id, new Changes().set(Column.HELD_REASON, null).set(Column.DEPENDS_ON, kept), now);
        String reason = dead.isEmpty() ? "released" : "released; dropped dependency " + csv(dead).replace(",", ", ");
        store.events.append(now, "job_released", id, null, reason, Map.of("dropped", dead));
        return new Released(id, true, reason, dead);
    }

    // ---------------------------------------------------------------- cancel, requeue, purge

    public record Cancelled(long id, boolean cancelled, String state, List<Long> holds) {
    }

    /**
     * Cancels each job that is still pending or running. A running job's process is left to the
     * scheduler as a kill obligation (an orphan row) so the kill happens whether or not its node
     * answers now; nothing cascades: jobs waiting on a cancelled one are held on the next pass.
     */
    public List<Cancelled> cancel(List<Long> ids) {
        boolean[] withdrawn = {false};
        List<Cancelled> results = withOperationLease("cancel", () -> {
            List<Cancelled> out = new ArrayList<>();
            for (long id : ids) {
                out.add(cancelOne(id, withdrawn));
            }
            return out;
        });
        if (withdrawn[0]) {
            tick(TickMode.FORCE); // the runner gets the lane's new head now, so the lane moves on at once
        }
        return results;
    }

    /** @param withdrawn set when a job staged with a lane runner was taken back from it */
    private Cancelled cancelOne(long id, boolean[] withdrawn) {
        Optional<Job> found = store.db.read(() -> store.jobs.find(id));
        if (found.isEmpty()) {
            return new Cancelled(id, false, null, List.of());
        }
        Job job = found.get();
        if (job.state().terminal()) {
            return new Cancelled(id, false, job.state().label(), List.of());
        }
        // The kill goes out before the transaction: a node that is slow to answer must not hold the write lock.
        String orphanReason = null;
        if (job.state() == JobState.RUNNING && job.node() != null && job.remotePid() != null && job.runDir() != null) {
            try {
                scheduler.terminate(job.node(), job.runDir(), job.remotePid(), job.remotePgid());
            } catch (TransportException e) {
                orphanReason = "cancelled while unreachable";
            }
        }
        String reason = orphanReason;
        Cancelled done = store.db.write(() -> {
            Job current = store.jobs.find(id).orElse(job);
            if (current.state().terminal()) {
                return new Cancelled(id, false, current.state().label(), List.of());
            }
            List<Long> holds = store.jobs.waitingOn(id).stream().map(Job::id).toList();
            Instant now = Times.now();
            if (reason != null) {
                Orphans.record(store, job, reason, now);
            }
            store.jobs.update(id, new Changes().set(Column.STATE, JobState.CANCELLED).set(Column.FINISHED_AT, now)
                    .set(Column.LAST_ERROR, "cancelled by user"), now);
            store.events.append(now, "job_cancelled", id, job.node(), "cancelled by user", null);
            return new Cancelled(id, true, JobState.CANCELLED.label(), holds);
        });
        if (done.cancelled() && job.state() == JobState.PENDING && job.lane() != null && job.runDir() != null) {
            withdrawFromRunner(job);
            withdrawn[0] = true;
        }
        return done;
    }

    /**
     * A cancelled job that was staged for a lane runner: its spec is withdrawn now, and if the
     * runner started it meanwhile, it is stopped. A node that cannot be reached is left to the
     * next pass, which reaps whatever the runner says it started for a cancelled job.
     */
    private void withdrawFromRunner(Job job) {
        try {
            LaneService.Withdrawn w = laneService().withdraw(job);
            if (w != null && w.startedPid() != null && scheduler.terminate(w.node(), job.runDir(), w.startedPid(),
                    w.startedPid())) {
                Instant now = Times.now();
                store.db.write(() -> {
                    store.events.append(now, "job_reaped", job.id(), w.node(),
                            "lane runner had already started this cancelled job", Map.of("pid", w.startedPid()));
                    return null;
                });
            }
        } catch (TransportException e) {
            // the next pass that reaches the node withdraws the spec or reaps the job
        }
    }

    public record Requeued(long id, boolean requeued, String state) {
    }

    public record RequeueResult(List<Requeued> results, TickSummary tick) {
    }

    public RequeueResult requeue(List<Long> ids, TickMode after) {
        List<Requeued> results = withOperationLease("requeue", () -> {
            List<Requeued> out = new ArrayList<>();
            for (long id : ids) {
                out.add(store.db.write(() -> requeueOne(id)));
            }
            return out;
        });
        boolean any = results.stream().anyMatch(Requeued::requeued);
        return new RequeueResult(results, any ? tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled());
    }

    private Requeued requeueOne(long id) {
        Optional<Job> found = store.jobs.find(id);
        if (found.isEmpty()) {
            return new Requeued(id, false, null);
        }
        Job job = found.get();
        if (!job.state().terminal()) {
            return new Requeued(id, false, job.state().label());
        }
        Instant now = Times.now();
        Changes reset = new Changes().set(Column.STATE, JobState.PENDING).set(Column.NODE, null)
                .set(Column.GPU_IDS, List.of()).set(Column.REMOTE_PID, null).set(Column.REMOTE_PGID, null)
                .set(Column.RUN_DIR, null).set(Column.EXIT_CODE, null).set(Column.STARTED_AT, null)
                .set(Column.FINISHED_AT, null).set(Column.HEARTBEAT_AT, null).set(Column.GPU_MEM_MB, null)
                .set(Column.LAST_ERROR, null).set(Column.HELD_REASON, null).set(Column.PROGRESS, null)
                .set(Column.PROGRESS_AT, null);
        if (job.lane() != null) {
            // decisions.md §8: a requeued lane job goes to the tail of its lane.
            reset.set(Column.LANE_SEQ, store.lanes.nextSeq(job.lane()));
        }
        store.jobs.update(id, reset, now);
        store.events.append(now, "job_requeued", id, null, "requeued", null);
        return new Requeued(id, true, JobState.PENDING.label());
    }

    /** Deletes finished job records, except those an active job still depends on. */
    public int purge(Set<JobState> states) {
        Set<JobState> wanted = states.isEmpty()
                ? Set.of(JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED, JobState.TIMEOUT, JobState.LOST)
                : states;
        for (JobState s : wanted) {
            if (!s.terminal()) {
                throw NvidbException.usage("--state " + s.label() + " is not a finished state; purge removes only "
                        + "completed, failed, cancelled, timeout or lost jobs");
            }
        }
        return store.db.write(() -> {
            Set<Long> referenced = new HashSet<>();
            for (Job j : store.jobs.active()) {
                referenced.addAll(j.dependsOn());
                referenced.addAll(j.dependsAny());
            }
            int removed = 0;
            for (Job j : store.jobs.inStates(wanted)) {
                if (!referenced.contains(j.id())) {
                    removed += store.jobs.delete(j.id());
                }
            }
            return removed;
        });
    }

    // ---------------------------------------------------------------- events and alerts

    public record EventPage(List<Event> events, Long lastId) {
    }

    public EventPage events(Long since, Long jobId, int limit) {
        List<Event> events = store.db.read(() -> since != null
                ? store.events.since(since, jobId, limit) : store.events.newest(jobId, limit));
        Long last = events.isEmpty() ? since : events.getLast().id();
        return new EventPage(events, last);
    }

    public record AlertPage(List<Alert> alerts, long open) {
    }

    public AlertPage alerts(boolean all, int limit) {
        return store.db.read(() -> new AlertPage(store.alerts.newest(all, limit), store.alerts.countOpen()));
    }

    /** Acknowledges open alerts; ids that are unknown are an error, already acknowledged ones are not counted. */
    public int acknowledge(List<Long> ids, boolean all) {
        if (!all && ids.isEmpty()) {
            throw NvidbException.usage("name the alerts to acknowledge (nvidb queue ack 3 4), or pass --all");
        }
        return store.db.write(() -> {
            Instant now = Times.now();
            if (all) {
                return store.alerts.acknowledgeAll(now);
            }
            for (long id : ids) {
                if (store.alerts.find(id).isEmpty()) {
                    throw NvidbException.notFound("alert " + id + " not found");
                }
            }
            return store.alerts.acknowledge(ids, now);
        });
    }

    public Map<String, Long> countsByState() {
        return store.db.read(store.jobs::countsByState);
    }

    // ---------------------------------------------------------------- nodes and logs

    /** The last {@code lines} lines of a job's stdout or stderr, read from its node. */
    public String logs(long id, boolean stderr, int lines) {
        if (lines < 1) {
            throw NvidbException.usage("-n takes a number of lines ≥ 1");
        }
        Job job = job(id);
        if (job.node() == null || job.runDir() == null) {
            return "";
        }
        try {
            return nodes.run(job.node(), nvidb.core.node.NodeScripts.tail(job.runDir(), stderr ? "stderr.log" : "stdout.log",
                    lines), java.time.Duration.ofSeconds(30), true).stdout();
        } catch (TransportException e) {
            throw NvidbException.failed("cannot read the log of job " + id + " on " + job.node() + ": " + e.getMessage());
        }
    }

    /** A node and its GPUs as the last probe saw them. */
    public record NodeView(NodeRecord node, List<nvidb.core.model.GpuState> gpus, List<Integer> allowlist) {
    }

    public List<NodeView> nodes(boolean includeIgnored) {
        List<nvidb.core.model.GpuState> gpus = store.db.read(() -> store.gpus.all(config.settings().headroomMb()));
        List<NodeView> out = new ArrayList<>();
        for (NodeRecord n : store.db.read(store.nodes::all)) {
            if (n.ignored() && !includeIgnored) {
                continue;
            }
            List<Integer> allow = nodes.server(n.name()).map(ServerConfig::gpuIds).orElse(null);
            out.add(new NodeView(n, gpus.stream().filter(g -> g.node().equals(n.name())).toList(), allow));
        }
        return out;
    }

    public long pendingReaps() {
        return store.db.read(() -> store.orphans().count());
    }

    /** Drains (no new work) or resumes a node; jobs already running there are left alone. */
    public NodeRecord setDrained(String typed, boolean drained) {
        String name = resolveKnownNode(typed);
        NodeRecord node = withOperationLease(drained ? "drain" : "resume", () -> store.db.write(() -> {
            store.nodes.setEnabled(name, !drained);
            return store.nodes.find(name).orElseThrow();
        }));
        if (drained && stagedOn(name)) {
            tick(TickMode.FORCE); // a runner holding a job of this node gives it back now, not at some later pass
        }
        return node;
    }

    /** Whether a lane runner on the node holds a job (a pending lane job with a run directory). */
    private boolean stagedOn(String node) {
        return store.db.read(() -> {
            java.util.Set<String> lanes = new java.util.HashSet<>();
            store.lanes.all().stream().filter(l -> l.node().equals(node)).forEach(l -> lanes.add(l.name()));
            return store.jobs.staged().stream().anyMatch(j -> lanes.contains(j.lane()));
        });
    }

    /** Ignores a node (no probe, no work, hidden) or brings it back; refused while it runs jobs. */
    public NodeRecord setIgnored(String typed, boolean ignored) {
        String name = resolveKnownNode(typed);
        return withOperationLease(ignored ? "ignore" : "unignore", () -> store.db.write(() -> {
            if (ignored) {
                List<Long> running = store.jobs.inStates(List.of(JobState.RUNNING)).stream()
                        .filter(j -> name.equals(j.node())).map(Job::id).toList();
                if (!running.isEmpty()) {
                    throw NvidbException.conflict("node " + name + " has running job(s) " + csv(running).replace(",", ", ")
                            + "; drain it and wait for them to finish before ignoring it");
                }
            }
            store.nodes.setIgnored(name, ignored);
            return store.nodes.find(name).orElseThrow();
        }));
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Runs an operation under the scheduler lease so it never interleaves with a pass. A pass
     * in progress is waited for briefly; a lease still held after that is a conflict.
     */
    private <T> T withOperationLease(String operation, java.util.function.Supplier<T> work) {
        String owner = scheduler.owner() + ":" + operation + ":" + UUID.randomUUID().toString().substring(0, 8);
        Instant deadline = Instant.now().plus(OPERATION_LEASE_WAIT);
        while (true) {
            Optional<Lease> blocker = store.leases.acquire(Scheduler.LEASE, owner, scheduler.leaseTtl(), Instant.now());
            if (blocker.isEmpty()) {
                break;
            }
            if (Instant.now().isAfter(deadline)) {
                throw NvidbException.conflict("scheduler is busy (held by " + blocker.get().owner()
                        + "); retry after the current tick finishes");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NvidbException(nvidb.core.error.ErrorCode.INTERRUPTED, "interrupted");
            }
        }
        try {
            return work.get();
        } finally {
            store.leases.release(Scheduler.LEASE, owner);
        }
    }

    static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    static String csv(List<Long> ids) {
        return ids.isEmpty() ? "-" : String.join(",", ids.stream().map(String::valueOf).toList());
    }

    static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    static String truncate(String s, int n) {
        String oneLine = s.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= n ? oneLine : oneLine.substring(0, n - 1) + "…";
    }

    /** Lanes: listing, showing and reordering them (one transaction each, no node contact). */
    public LaneService laneService() {
        return new LaneService(store, config, this::resolveKnownNode, this::tick, nodes);
    }

    @Override
    public void close() {
        nodes.close();
        store.close();
    }
}
