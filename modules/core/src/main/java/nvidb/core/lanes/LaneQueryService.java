package nvidb.core.lanes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.Json;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.operation.ServiceContext;
import nvidb.core.scheduler.LaneReadiness;
import nvidb.core.store.Store;

/**
 * Reading lanes: what each lane runs, what comes next and why it waits. Whether a lane can start
 * work at all is {@link LaneReadiness}'s call; this class only words it for a person.
 */
public final class LaneQueryService implements LaneQueries {
    private final ServiceContext ctx;
    private final Store store;
    private final QueueConfig config;

    public LaneQueryService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.config = ctx.config();
    }

    /** A runner is up when it answered within this long and was alive then. */
    static final Duration RUNNER_STALE = Duration.ofSeconds(120);

    /** Whether the lane's runner answered a sync or stop lately and was alive then. */
    static boolean answeredLately(LaneRecord lane, Instant now) {
        if (lane.runnerStateJson() == null || lane.runnerSeenAt() == null
                || Duration.between(lane.runnerSeenAt(), now).compareTo(RUNNER_STALE) > 0) {
            return false;
        }
        return runnerState(lane).path("alive").asBoolean(false);
    }

    @Override
    public boolean runnerUp(LaneRecord lane, Instant now) {
        return answeredLately(lane, now);
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

    @Override
    public LaneRecord resolve(String typed) {
        if (typed == null || typed.isBlank()) {
            throw NvidbException.usage("name a lane, e.g. box406:0");
        }
        return store.db.write(() -> {
            Lanes.Resolved r = Lanes.of(ctx).resolveOrCreate(typed.strip());
            return store.lanes.find(r.name()).orElseThrow();
        });
    }

    @Override
    public List<LaneView> list(String nodeTyped) {
        String node = nodeTyped == null ? null : ctx.resolveNode(nodeTyped);
        ensureGpuLanes();
        return store.db.read(() -> {
            Context c = context();
            List<LaneRecord> all = new ArrayList<>(store.lanes.all());
            all.removeIf(l -> node != null && !l.node().equals(node));
            all.sort(order(c.nodeOrder()));
            return all.stream().map(l -> view(l, c)).toList();
        });
    }

    @Override
    public LaneView show(String typed) {
        LaneRecord lane = resolve(typed);
        return store.db.read(() -> view(store.lanes.find(lane.name()).orElseThrow(), context()));
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
            Set<String> existing = new HashSet<>();
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
                           List<Job> laneJobs, Instant now) {
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
        return new Context(nodes, order, gpus, store.jobs.activeInLanes(), Times.now());
    }

    /**
     * Lanes by node (in the configuration's order), then GPU ids, then name. Written out rather
     * than chained with {@code Comparator.comparing…}: the JDK's lambdas inside those chains are
     * spun at run time by every command that lists lanes (the AOT cache holds only our own).
     */
    private static Comparator<LaneRecord> order(Map<String, Integer> nodeOrder) {
        return (a, b) -> {
            int c = Integer.compare(nodeOrder.getOrDefault(a.node(), Integer.MAX_VALUE),
                    nodeOrder.getOrDefault(b.node(), Integer.MAX_VALUE));
            if (c == 0) {
                c = a.node().compareTo(b.node());
            }
            if (c == 0) {
                c = compareGpuIds(a.gpuIds(), b.gpuIds());
            }
            return c != 0 ? c : a.name().compareTo(b.name());
        };
    }

    private static int compareGpuIds(List<Integer> a, List<Integer> b) {
        for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
            int c = Integer.compare(a.get(k), b.get(k));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private LaneView view(LaneRecord lane, Context c) {
        List<Job> running = c.laneJobs().stream()
                .filter(j -> j.state() == JobState.RUNNING && lane.name().equals(j.lane())).toList();
        List<Job> queued = c.laneJobs().stream()
                .filter(j -> j.state() == JobState.PENDING && lane.name().equals(j.lane()))
                .sorted(Job.LANE_ORDER).toList();
        NodeRecord node = c.nodes().get(lane.node());
        String nodeState = node == null ? NodeState.UNKNOWN.label() : node.state().label();
        boolean up = answeredLately(lane, c.now());
        return new LaneView(lane, nodeState, running, queued, blocked(lane, node, running, queued, up, c), up);
    }

    /** The first reason the lane's next job cannot start, or null. */
    private String blocked(LaneRecord lane, NodeRecord node, List<Job> running, List<Job> queued,
                           boolean runnerUp, Context c) {
        ServerConfig server = config.servers().stream().filter(s -> s.name().equals(lane.node())).findFirst()
                .orElse(null);
        String unavailable = LaneReadiness.unavailable(lane, node, server);
        if (unavailable != null) {
            return unavailable;
        }
        if (queued.isEmpty()) {
            return null;
        }
        Set<Integer> present = new HashSet<>();
        c.gpus().values().stream().filter(g -> g.node().equals(lane.node())).forEach(g -> present.add(g.index()));
        String cards = LaneReadiness.cardsUnusable(lane, present, server);
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
}
