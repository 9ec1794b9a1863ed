package nvidb.core.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.error.NvidbException;
import nvidb.core.model.GpuState;
import nvidb.core.model.Job;
import nvidb.core.model.JobState;
import nvidb.core.model.LaneRecord;
import nvidb.core.model.NodeRecord;
import nvidb.core.model.TickSummary;
import nvidb.core.node.LaneRunner;
import nvidb.core.node.NodeConnections;
import nvidb.core.service.QueueService.TickMode;
import nvidb.core.store.JobRepository.Changes;
import nvidb.core.store.JobRepository.Column;
import nvidb.core.util.Json;
import nvidb.core.store.Store;
import nvidb.core.util.Times;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * The database side of lanes: what each lane runs and what comes next, and every way a person
 * reorders one. Each change is one transaction and touches no node, so it is instant and works
 * while the node is unreachable. The lane named on the command line is the lane acted on: a job
 * that is not queued in it is refused rather than moved in some other lane.
 */
public final class LaneService {
    private final Store store;
    private final QueueConfig config;
    private final Function<String, String> nodeResolver;
    private final Function<TickMode, TickSummary> ticker;
    private final NodeConnections nodes;

    LaneService(Store store, QueueConfig config, Function<String, String> nodeResolver,
                Function<TickMode, TickSummary> ticker, NodeConnections nodes) {
        this.store = store;
        this.config = config;
        this.nodeResolver = nodeResolver;
        this.ticker = ticker;
        this.nodes = nodes;
    }

    /** A runner is up when it answered within this long and was alive then. */
    static final Duration RUNNER_STALE = Duration.ofSeconds(120);

    private Lanes lanes() {
        return new Lanes(store, nodeResolver);
    }

    // ---------------------------------------------------------------- reading

    /**
     * A lane and its work. {@code blocked} says why its next job cannot start, or null.
     *
     * @param nodeState the node's state, {@code unknown} when the node has no row
     */
    public record LaneView(LaneRecord lane, String nodeState, List<Job> running, List<Job> queued, String blocked,
                           boolean runnerUp) {
        public LaneView {
            running = List.copyOf(running);
            queued = List.copyOf(queued);
        }
    }

    /** Whether the lane's runner answered a sync or stop lately and was alive then. */
    public static boolean runnerUp(LaneRecord lane, Instant now) {
        if (lane.runnerStateJson() == null || lane.runnerSeenAt() == null
                || Duration.between(lane.runnerSeenAt(), now).compareTo(RUNNER_STALE) > 0) {
            return false;
        }
        return runnerState(lane).path("alive").asBoolean(false);
    }

    /** The runner's last state as JSON (a missing node when none). */
    static JsonNode runnerState(LaneRecord lane) {
        if (lane.runnerStateJson() == null) {
            return MissingNode.getInstance();
        }
        try {
            return Json.readTree(lane.runnerStateJson());
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }

    /** Resolves a lane name as typed (exact, case-insensitive, unique prefix, or {@code node:gpu}, created). */
    public LaneRecord resolve(String typed) {
        if (typed == null || typed.isBlank()) {
            throw NvidbException.usage("name a lane, e.g. box406:0");
        }
        return store.db.write(() -> {
            Lanes.Resolved r = lanes().resolveOrCreate(typed.strip());
            return store.lanes.find(r.name()).orElseThrow();
        });
    }

    /** Every lane (or one node's), in node configuration order then GPU indices. */
    public List<LaneView> list(String nodeTyped) {
        String node = nodeTyped == null ? null : nodeResolver.apply(nodeTyped);
        ensureGpuLanes();
        return store.db.read(() -> {
            Context c = context();
            List<LaneRecord> all = new ArrayList<>(store.lanes.all());
            all.removeIf(l -> node != null && !l.node().equals(node));
            all.sort(order(c.nodeOrder()));
            return all.stream().map(l -> view(l, c)).toList();
        });
    }

    public LaneView show(String typed) {
        LaneRecord lane = resolve(typed);
        return store.db.read(() -> view(store.lanes.find(lane.name()).orElseThrow(), context()));
    }

    /**
     * {@code lane L runner}: what the node side of the lane is doing, as its last answer said.
     *
     * @param running the jobs the runner runs now (job ids)
     * @param staged  the jobs handed to it and not yet started (job ids)
     */
    public record RunnerStatus(LaneRecord lane, boolean up, Integer pid, List<Long> running, List<Long> staged,
                               String waiting, String blocked) {
        public RunnerStatus {
            running = List.copyOf(running);
            staged = List.copyOf(staged);
        }
    }

    public RunnerStatus runner(String typed) {
        LaneView v = show(typed);
        JsonNode state = runnerState(v.lane());
        List<Long> running = new ArrayList<>();
        state.path("current").forEach(c -> running.add(c.path("job_id").asLong()));
        List<Long> staged = new ArrayList<>();
        state.path("queued").forEach(q -> staged.add(q.asLong()));
        Integer pid = state.path("pid").canConvertToInt() ? state.path("pid").asInt() : null;
        String waiting = state.path("waiting").isTextual() ? state.path("waiting").asText() : null;
        return new RunnerStatus(v.lane(), v.runnerUp(), pid, running, staged, waiting, v.blocked());
    }

    /** What a runner control did: {@code stopped} when a live runner was told. */
    public record RunnerControl(LaneRecord lane, boolean stopped, boolean hard, TickSummary tick) {
    }

    /**
     * Switches the lane's runner on (then a forced pass starts one when the lane has work) or off
     * (a live runner is told to stop once its job is done; the controller then starts the lane's
     * jobs itself). A node that cannot be reached now is told at a later pass.
     */
    public RunnerControl setRunner(String typed, boolean on, TickMode after) {
        LaneRecord lane = store.db.write(() -> {
            String name = resolveName(typed);
            store.lanes.setRunner(name, on, Times.now());
            return store.lanes.find(name).orElseThrow();
        });
        if (on) {
            return new RunnerControl(lane, false, false, ticker.apply(forced(after)));
        }
        boolean stopped;
        try {
            stopped = stopRemote(lane, false, false);
        } catch (TransportException e) {
            stopped = false; // the next pass that reaches the node withdraws its specs and stops the runner
        }
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, false, null);
    }

    /**
     * Stops the lane's runner: its staged specs are withdrawn and it exits once its job is done
     * ({@code hard}: at once). Never signals a job. The next pass that has work for the lane
     * starts a runner again.
     */
    public RunnerControl stop(String typed, boolean hard) {
        LaneRecord lane = resolve(typed);
        boolean stopped = remote(lane, () -> stopRemote(lane, hard, false));
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, hard, null);
    }

    /**
     * Replaces the lane's runner: the old one exits at its next safe point ({@code hard}: is
     * terminated now), then a forced pass starts a new one, which adopts the job the old one
     * started. The job itself is never touched.
     */
    public RunnerControl restart(String typed, boolean hard, TickMode after) {
        LaneRecord lane = resolve(typed);
        if (!lane.runner()) {
            throw NvidbException.conflict("the runner of lane '" + lane.name() + "' is off (the scheduler starts its jobs);"
                    + " switch it on with `nvidb queue lane " + lane.name() + " runner on`");
        }
        boolean stopped = remote(lane, () -> stopRemote(lane, hard, true));
        TickSummary tick = ticker.apply(forced(after));
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, hard, tick);
    }

    private interface Remote {
        boolean call() throws TransportException;
    }

    private boolean remote(LaneRecord lane, Remote call) {
        if (nodes.server(lane.node()).isEmpty()) {
            throw NvidbException.conflict("node " + lane.node() + " of lane '" + lane.name() + "' is not configured");
        }
        try {
            return call.call();
        } catch (TransportException e) {
            throw NvidbException.failed("cannot reach " + lane.node() + " to stop the runner of lane '" + lane.name()
                    + "': " + e.getMessage());
        }
    }

    /** One round trip: withdraws, asks the runner to stop or exit, and forgets its cached state. */
    private boolean stopRemote(LaneRecord lane, boolean hard, boolean restart) throws TransportException {
        if (nodes.server(lane.node()).isEmpty()) {
            return false;
        }
        String marker = "@@nvidb-" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        ExecResult r = nodes.run(lane.node(), LaneRunner.stopScript(config.settings().laneSpoolRoot(), lane.name(), hard,
                restart, marker), Duration.ofSeconds(config.settings().probeTimeout()), true);
        LaneRunner.LaneAnswer answer = LaneRunner.parseLane(r.stdout(), marker);
        store.db.write(() -> {
            store.lanes.saveRunnerState(lane.name(), null, null);
            return null;
        });
        return answer.stopped();
    }

    /** @param startedPid the job's run.sh pid when the runner had already started it, else null */
    record Withdrawn(String node, Integer startedPid) {
    }

    /**
     * Takes a staged job back from its lane's runner: deletes its spec unless already claimed.
     * Returns null when the job was never staged (nothing to do); otherwise the node and, when the
     * runner had already started it, the pid. A job taken back forgets its run directory.
     */
    Withdrawn withdraw(Job job) throws TransportException {
        if (job.lane() == null || job.runDir() == null) {
            return null;
        }
        String node = store.db.read(() -> store.lanes.find(job.lane())).map(LaneRecord::node).orElse(null);
        if (node == null || nodes.server(node).isEmpty()) {
            return null;
        }
        String out = nodes.run(node, LaneRunner.withdrawScript(config.settings().laneSpoolRoot(), job.lane(), job.id(),
                job.runDir()), Duration.ofSeconds(config.settings().probeTimeout()), true).stdout();
        Integer pid = out.lines().filter(l -> l.startsWith("pid=")).map(l -> l.substring(4).strip())
                .filter(v -> v.matches("\\d{1,9}")).map(Integer::valueOf).findFirst().orElse(null);
        if (pid == null) {
            store.db.write(() -> {
                Job current = store.jobs.find(job.id()).orElse(null);
                if (current != null && current.state() == JobState.PENDING && job.runDir().equals(current.runDir())) {
                    store.jobs.update(job.id(), Changes.of(Column.RUN_DIR, null), Times.now());
                }
                return null;
            });
        }
        return new Withdrawn(node, pid);
    }

    /**
     * Before a staged job leaves its lane (assigned elsewhere or taken out), its runner gives it
     * back; a job the runner already started stays where it is.
     */
    private void takeBack(long id, String verb) {
        Job job = store.db.read(() -> store.jobs.find(id)).orElse(null);
        if (job == null || job.state() != JobState.PENDING || job.runDir() == null || job.lane() == null) {
            return;
        }
        Withdrawn w;
        try {
            w = withdraw(job);
        } catch (TransportException e) {
            throw NvidbException.conflict("job " + id + " is staged with the runner of lane '" + job.lane()
                    + "', whose node cannot be reached to take it back (" + e.getMessage()
                    + "); try again when the node answers, or cancel the job");
        }
        if (w != null && w.startedPid() != null) {
            throw NvidbException.conflict("job " + id + " has just been started by the runner of lane '" + job.lane()
                    + "' (pid " + w.startedPid() + "); a running job cannot be " + verb);
        }
    }

    /**
     * After the lane's order changed: when a runner holds a job of the lane, a pass right away
     * withdraws what is no longer next and stages what is, so the runner never starts a job the
     * new order put further back. The order itself was already written.
     */
    private TickSummary resync(String lane, TickMode after) {
        if (after == TickMode.NONE) {
            return TickSummary.disabled();
        }
        boolean staged = store.db.read(() -> store.jobs.staged().stream().anyMatch(j -> lane.equals(j.lane())));
        return staged ? ticker.apply(TickMode.FORCE) : null;
    }

    /** Sets how many of the lane's jobs may run at once. */
    public LaneRecord concurrency(String typed, int n) {
        if (n < 1) {
            throw NvidbException.usage("concurrency must be at least 1 (got " + n + ")");
        }
        return store.db.write(() -> {
            String name = resolveName(typed);
            store.lanes.setConcurrency(name, n, Times.now());
            return store.lanes.find(name).orElseThrow();
        });
    }

    /**
     * Lanes exist for every allowlisted GPU a probe has seen (never deleted: a card missing
     * from one probe must not drop its queue). Created here, when lanes are listed.
     */
    private void ensureGpuLanes() {
        List<String[]> missing = store.db.read(() -> {
            Map<String, ServerConfig> servers = new HashMap<>();
            config.servers().forEach(s -> servers.put(s.name(), s));
            Map<String, NodeRecord> nodes = new HashMap<>();
            store.nodes.all().forEach(n -> nodes.put(n.name(), n));
            java.util.Set<String> existing = new java.util.HashSet<>();
            store.lanes.all().forEach(l -> existing.add(l.name()));
            List<String[]> out = new ArrayList<>();
            for (GpuState g : store.gpus.all(config.settings().headroomMb())) {
                ServerConfig s = servers.get(g.node());
                NodeRecord n = nodes.get(g.node());
                if (s == null || n == null || n.ignored() || (s.gpuIds() != null && !s.gpuIds().contains(g.index()))) {
                    continue;
                }
                String name = g.node() + ":" + g.index();
                if (!existing.contains(name)) {
                    out.add(new String[] {name, g.node(), String.valueOf(g.index())});
                }
            }
            return out;
        });
        if (missing.isEmpty()) {
            return;
        }
        store.db.write(() -> {
            Instant now = Times.now();
            for (String[] m : missing) {
                store.lanes.create(m[0], m[1], List.of(Integer.parseInt(m[2])), now);
            }
            return null;
        });
    }

    /** What every view needs, read once. */
    private record Context(Map<String, NodeRecord> nodes, Map<String, Integer> nodeOrder, Map<String, GpuState> gpus,
                           List<Job> active, Instant now) {
    }

    private Context context() {
        Map<String, NodeRecord> nodes = new LinkedHashMap<>();
        Map<String, Integer> order = new HashMap<>();
        int i = 0;
        for (NodeRecord n : store.nodes.all()) {
            nodes.put(n.name(), n);
            order.put(n.name(), i++);
        }
        Map<String, GpuState> gpus = new HashMap<>();
        for (GpuState g : store.gpus.all(config.settings().headroomMb())) {
            gpus.put(g.node() + ":" + g.index(), g);
        }
        return new Context(nodes, order, gpus, store.jobs.active(), Times.now());
    }

    private static Comparator<LaneRecord> order(Map<String, Integer> nodeOrder) {
        Comparator<List<Integer>> byGpus = (a, b) -> {
            for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
                int c = Integer.compare(a.get(k), b.get(k));
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a.size(), b.size());
        };
        return Comparator.comparingInt((LaneRecord l) -> nodeOrder.getOrDefault(l.node(), Integer.MAX_VALUE))
                .thenComparing(LaneRecord::node)
                .thenComparing(LaneRecord::gpuIds, byGpus)
                .thenComparing(LaneRecord::name);
    }

    private LaneView view(LaneRecord lane, Context c) {
        List<Job> running = c.active().stream()
                .filter(j -> j.state() == JobState.RUNNING && lane.name().equals(j.lane())).toList();
        List<Job> queued = c.active().stream()
                .filter(j -> j.state() == JobState.PENDING && lane.name().equals(j.lane()))
                .sorted(Job.LANE_ORDER).toList();
        NodeRecord node = c.nodes().get(lane.node());
        String nodeState = node == null || node.state() == null ? "unknown" : node.state();
        boolean up = runnerUp(lane, c.now());
        return new LaneView(lane, nodeState, running, queued, blocked(lane, node, nodeState, running, queued, up, c), up);
    }

    /** The first reason the lane's next job cannot start, or null. */
    private String blocked(LaneRecord lane, NodeRecord node, String nodeState, List<Job> running, List<Job> queued,
                           boolean runnerUp, Context c) {
        if (lane.paused()) {
            return "paused";
        }
        boolean configured = config.servers().stream().anyMatch(s -> s.name().equals(lane.node()));
        if (!configured || node == null) {
            return "node " + lane.node() + " is not configured";
        }
        if (node.ignored()) {
            return "node " + lane.node() + " is ignored";
        }
        if (!node.enabled()) {
            return "node " + lane.node() + " is drained";
        }
        if (!"up".equals(nodeState)) {
            return "node " + lane.node() + " is " + nodeState;
        }
        if (queued.isEmpty()) {
            return null;
        }
        java.util.Set<Integer> present = new java.util.HashSet<>();
        c.gpus().values().stream().filter(g -> g.node().equals(lane.node())).forEach(g -> present.add(g.index()));
        String cards = nvidb.core.scheduler.LaneCards.unusable(lane, present,
                config.servers().stream().filter(s -> s.name().equals(lane.node())).findFirst().orElse(null));
        if (cards != null) {
            return cards;
        }
        Job head = queued.getFirst();
        if (head.held()) {
            return "job " + head.id() + " is held: " + head.heldReason();
        }
        if (running.size() >= lane.concurrency()) {
            return null; // busy with its own work
        }
        String cardFull = head.vramMb() <= 0 ? null : cardFull(lane, head, c);
        if (cardFull != null) {
            return cardFull;
        }
        if (lane.runner() && runnerUp) {
            JsonNode waiting = runnerState(lane).path("waiting");
            return waiting.isTextual() ? "runner waits: " + waiting.asText() : null;
        }
        return lane.runner() ? "waiting for a runner on the node" : null;
    }

    /** A lane card whose free memory is taken by work the queue did not start, or null. */
    private static String cardFull(LaneRecord lane, Job head, Context c) {
        for (int index : lane.gpuIds()) {
            GpuState g = c.gpus().get(lane.node() + ":" + index);
            if (g == null || g.externalMemMb() <= 0) {
                continue;
            }
            if (g.freeMb() < head.vramMb() && g.freeMb() + g.externalMemMb() >= head.vramMb()) {
                return "card full: " + g.externalMemMb() + " MiB of " + lane.node() + " GPU " + index
                        + (g.memTotalMb() == null ? "" : " (" + g.memTotalMb() + " MiB)")
                        + " in use by work the queue did not start; job " + head.id() + " needs " + head.vramMb()
                        + " MiB, " + g.freeMb() + " MiB free";
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- reordering

    public record Moved(long id, String lane, int position, TickSummary tick) {
    }

    /**
     * Moves a queued job of {@code laneTyped} to {@code to} (head, tail or a 1-based slot,
     * clamped), or just before or after another queued job of the same lane.
     */
    public Moved move(String laneTyped, long id, String to, Long before, Long after, TickMode tick) {
        int given = (to != null ? 1 : 0) + (before != null ? 1 : 0) + (after != null ? 1 : 0);
        if (given != 1) {
            throw NvidbException.usage("pass exactly one of --to, --before or --after");
        }
        Long anchor = before != null ? before : after;
        if (anchor != null && anchor == id) {
            throw NvidbException.usage("a job cannot be moved relative to itself (job " + id + ")");
        }
        Moved m = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(resolveName(laneTyped)).orElseThrow();
            queuedJob(id, lane, "moved");
            if (anchor != null) {
                queuedJob(anchor, lane, "used as an anchor");
            }
            Lanes lanes = lanes();
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            int from = indexOf(order, id);
            Job job = order.remove(from);
            int slot;
            if (anchor == null) {
                slot = Lanes.slot(to, order.size() + 1);
            } else {
                int at = indexOf(order, anchor);
                slot = (before != null ? at : at + 1) + 1;
            }
            order.add(slot - 1, job);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, "lane_reordered", id, lane.node(), lane.name() + ": moved to slot " + slot,
                    Map.of("lane", lane.name(), "position", slot));
            return new Moved(id, lane.name(), slot, null);
        });
        return new Moved(m.id(), m.lane(), m.position(), resync(m.lane(), tick));
    }

    public record Swapped(String lane, List<Long> order, TickSummary tick) {
    }

    public Swapped swap(String laneTyped, long a, long b, TickMode tick) {
        if (a == b) {
            throw NvidbException.usage("swap needs two different jobs (got " + a + " twice)");
        }
        Swapped done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(resolveName(laneTyped)).orElseThrow();
            queuedJob(a, lane, "swapped");
            queuedJob(b, lane, "swapped");
            Lanes lanes = lanes();
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            int i = indexOf(order, a);
            int j = indexOf(order, b);
            Job x = order.get(i);
            order.set(i, order.get(j));
            order.set(j, x);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, "lane_reordered", a, lane.node(), lane.name() + ": swapped with job " + b,
                    Map.of("lane", lane.name(), "swapped_with", b));
            return new Swapped(lane.name(), ids(order), null);
        });
        return new Swapped(done.lane(), done.order(), resync(done.lane(), tick));
    }

    /** @param skipped the job sent to the back, or null when fewer than two jobs are queued */
    public record Skipped(String lane, Long skipped, List<Long> order, TickSummary tick) {
    }

    /** Sends the head of the lane to its back (also a held head: the sanctioned way past it). */
    public Skipped skip(String laneTyped, TickMode after) {
        Skipped done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(resolveName(laneTyped)).orElseThrow();
            Lanes lanes = lanes();
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            if (order.size() < 2) {
                return new Skipped(lane.name(), null, ids(order), null);
            }
            Job head = order.removeFirst();
            order.add(head);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, "lane_reordered", head.id(), lane.node(), lane.name() + ": skipped to the back",
                    Map.of("lane", lane.name()));
            return new Skipped(lane.name(), head.id(), ids(order), null);
        });
        TickSummary tick = done.skipped() == null ? TickSummary.disabled() : ticker.apply(forced(after));
        return new Skipped(done.lane(), done.skipped(), done.order(), tick);
    }

    /**
     * @param lane     the lane the job is in now; null after {@code --none}
     * @param position its 1-based slot there; null after {@code --none}
     */
    public record Assigned(long id, String lane, String previous, Integer position, TickSummary tick) {
    }

    /** Puts a queued job into this lane, at the tail or {@code at}; its node pin becomes the lane's node. */
    public Assigned assign(String laneTyped, long id, String at, TickMode after) {
        String target = store.db.write(() -> resolveName(laneTyped));
        if (!target.equals(store.db.read(() -> store.jobs.find(id)).map(Job::lane).orElse(target))) {
            takeBack(id, "moved to another lane");
        }
        Assigned done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(resolveName(laneTyped)).orElseThrow();
            Job job = pendingJob(id, "assigned");
            int width = lane.gpuIds().size();
            if (job.gpus() > width) {
                throw NvidbException.conflict("job " + id + " needs " + job.gpus() + " GPUs; lane '" + lane.name()
                        + "' has " + width);
            }
            Instant now = Times.now();
            Lanes lanes = lanes();
            String previous = job.lane();
            if (!lane.name().equals(previous)) {
                store.jobs.update(id, new Changes().set(Column.LANE, lane.name())
                        .set(Column.LANE_SEQ, store.lanes.nextSeq(lane.name()))
                        .set(Column.NODE_CONSTRAINT, lane.node()), now);
            } else if (!lane.node().equals(job.nodeConstraint())) {
                store.jobs.update(id, Changes.of(Column.NODE_CONSTRAINT, lane.node()), now);
            }
            int position = at != null || !lane.name().equals(previous)
                    ? lanes.move(id, lane.name(), at == null ? "tail" : at, now)
                    : indexOf(lanes.queued(lane.name()), id) + 1;
            store.events.append(now, "lane_assigned", id, lane.node(),
                    (previous == null ? "-" : previous) + " -> " + lane.name(),
                    data("lane", lane.name(), "previous", previous, "position", position));
            return new Assigned(id, lane.name(), previous, position, null);
        });
        return new Assigned(done.id(), done.lane(), done.previous(), done.position(), ticker.apply(forced(after)));
    }

    /** Takes a queued job out of this lane; it joins the free pool with no node pin (decisions.md §8). */
    public Assigned unassign(String laneTyped, long id, TickMode after) {
        String target = store.db.write(() -> resolveName(laneTyped));
        if (target.equals(store.db.read(() -> store.jobs.find(id)).map(Job::lane).orElse(null))) {
            takeBack(id, "taken out of its lane");
        }
        Assigned done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(resolveName(laneTyped)).orElseThrow();
            Job job = pendingJob(id, "taken out of a lane");
            if (!lane.name().equals(job.lane())) {
                throw NvidbException.conflict("job " + id + " is not queued in lane '" + lane.name() + "'"
                        + (job.lane() == null ? "; it is in no lane" : "; it is in lane '" + job.lane() + "'"));
            }
            Instant now = Times.now();
            store.jobs.update(id, new Changes().set(Column.LANE, null).set(Column.LANE_SEQ, null)
                    .set(Column.NODE_CONSTRAINT, null), now);
            store.events.append(now, "lane_assigned", id, lane.node(), "removed from lane " + lane.name(),
                    data("lane", null, "previous", lane.name()));
            return new Assigned(id, null, lane.name(), null, null);
        });
        return new Assigned(done.id(), null, done.previous(), null, ticker.apply(forced(after)));
    }

    /** @param changed false when the lane already was in that state (no event then) */
    public record Switched(LaneRecord lane, boolean changed, TickSummary tick) {
    }

    /**
     * Stops the lane starting new jobs; what already runs is left alone. When a runner holds the
     * lane's next job, a pass right away takes it back.
     */
    public Switched pause(String laneTyped, TickMode after) {
        return setPaused(laneTyped, true, after);
    }

    public Switched resume(String laneTyped, TickMode after) {
        return setPaused(laneTyped, false, after);
    }

    private Switched setPaused(String laneTyped, boolean paused, TickMode after) {
        Switched done = store.db.write(() -> {
            String name = resolveName(laneTyped);
            Instant now = Times.now();
            boolean changed = store.lanes.setPaused(name, paused, now);
            LaneRecord lane = store.lanes.find(name).orElseThrow();
            if (changed) {
                store.events.append(now, paused ? "lane_paused" : "lane_resumed", null, lane.node(), lane.name(), null);
            }
            return new Switched(lane, changed, null);
        });
        TickSummary tick = paused ? resync(done.lane().name(), after) : ticker.apply(forced(after));
        return new Switched(done.lane(), done.changed(), tick);
    }

    // ---------------------------------------------------------------- helpers

    private String resolveName(String typed) {
        if (typed == null || typed.isBlank()) {
            throw NvidbException.usage("name a lane, e.g. box406:0");
        }
        return lanes().resolveOrCreate(typed.strip()).name();
    }

    private Job pendingJob(long id, String verb) {
        Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
        if (job.state() == JobState.RUNNING) {
            throw NvidbException.conflict("job " + id + " is running; a running job cannot be " + verb
                    + " (cancel it if it must stop)");
        }
        if (job.state() != JobState.PENDING) {
            throw NvidbException.conflict("job " + id + " is " + job.state().label() + "; only queued jobs can be " + verb);
        }
        return job;
    }

    /** The job, which must be queued (pending) in {@code lane}. */
    private Job queuedJob(long id, LaneRecord lane, String verb) {
        Job job = pendingJob(id, verb);
        if (!lane.name().equals(job.lane())) {
            throw NvidbException.conflict("job " + id + " is not queued in lane '" + lane.name() + "'"
                    + (job.lane() == null
                            ? "; it is in no lane (put it in with `nvidb queue lane " + lane.name() + " assign " + id + "`)"
                            : "; it is in lane '" + job.lane() + "'"));
        }
        return job;
    }

    private static TickMode forced(TickMode after) {
        return after == TickMode.AUTO ? TickMode.FORCE : after;
    }

    private static int indexOf(List<Job> jobs, long id) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() == id) {
                return i;
            }
        }
        throw new IllegalStateException("job " + id + " vanished from its lane");
    }

    private static List<Long> ids(List<Job> jobs) {
        return jobs.stream().map(Job::id).toList();
    }

    private static Map<String, Object> data(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
