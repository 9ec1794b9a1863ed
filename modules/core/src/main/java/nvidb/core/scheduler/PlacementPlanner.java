package nvidb.core.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.Sizes;
import nvidb.core.config.QueueSettings;
import nvidb.core.config.ServerConfig;
import nvidb.spi.placement.GpuBudget;
import nvidb.spi.placement.Placement;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementRequest;

/**
 * Placement decisions of one dispatch pass, from in-memory budgets: which node and GPUs a job
 * gets, or that it can never run. Budgets are charged as jobs are placed, so one pass never
 * promises the same memory twice. Pure computation: no I/O, which is what the benchmark measures.
 */
public final class PlacementPlanner {
    /** Dispatch order: higher priority first, then earlier submission. */
    public static final Comparator<Job> ORDER = Job.DISPATCH_ORDER;

    /** Where a job goes. */
    public record Choice(String node, List<Integer> gpuIds) {
    }

    /** A GPU's room during this pass; charged in place. */
    private static final class Budget {
        final String node;
        final int index;
        final long totalMb;
        long freeMb;
        int queueJobs;

        Budget(String node, int index, long totalMb, long freeMb, int queueJobs) {
            this.node = node;
            this.index = index;
            this.totalMb = totalMb;
            this.freeMb = freeMb;
            this.queueJobs = queueJobs;
        }
    }

    private final QueueSettings settings;
    private final PlacementPolicy policy;
    /** Nodes that may take new work, in configuration order. */
    private final List<String> schedulable = new ArrayList<>();
    /** Configured nodes the last refresh reached and that are not ignored (drained ones too). */
    private final java.util.Set<String> reachable = new java.util.HashSet<>();
    /** Allowlisted GPUs of every configured node seen with GPUs (drained ones too): the inventory. */
    private final Map<String, List<Budget>> inventory = new LinkedHashMap<>();
    private final Map<String, Integer> cpuSlots = new HashMap<>();
    private final Map<String, Integer> gpuJobsPerNode = new HashMap<>();
    /** Verdicts of {@link #unschedulable} by pin and size: judged on totals, they never change in a pass. */
    private final Map<String, Optional<String>> verdicts = new HashMap<>();
    /** The most free memory of any schedulable card with a job slot left (-1: none); stale after a charge. */
    private long roomiest;
    private boolean roomiestStale = true;

    public PlacementPlanner(QueueSettings settings, PlacementPolicy policy, List<NodeRecord> nodes, List<ServerConfig> servers,
                      List<GpuState> gpus, List<Job> running) {
        this.settings = settings;
        this.policy = policy;
        Map<String, ServerConfig> byName = new HashMap<>();
        servers.forEach(s -> byName.put(s.name(), s));
        Map<String, NodeRecord> rows = new HashMap<>();
        nodes.forEach(n -> rows.put(n.name(), n));
        for (ServerConfig s : servers) {
            NodeRecord n = rows.get(s.name());
            if (n == null || n.ignored() || n.state() == NodeState.DOWN) {
                continue;
            }
            reachable.add(s.name());
            List<Budget> budgets = new ArrayList<>();
            for (GpuState g : gpus) {
                if (g.node().equals(s.name()) && (s.gpuIds() == null || s.gpuIds().contains(g.index()))) {
                    budgets.add(new Budget(g.node(), g.index(), g.memTotalMb() == null ? 0 : g.memTotalMb(), g.freeMb(),
                            g.queueJobs()));
                }
            }
            if (!budgets.isEmpty()) {
                inventory.put(s.name(), budgets);
            }
            if (n.enabled() && n.state() == NodeState.UP) {
                schedulable.add(s.name());
            }
        }
        for (Job j : running) {
            if (j.node() == null) {
                continue;
            }
            if (j.gpus() <= 0) {
                cpuSlots.merge(j.node(), 1, Integer::sum);
            } else {
                gpuJobsPerNode.merge(j.node(), 1, Integer::sum);
            }
        }
        int cap = settings.maxCpuJobsPerNode();
        for (String node : schedulable) {
            int used = cpuSlots.getOrDefault(node, 0);
            cpuSlots.put(node, cap <= 0 ? Integer.MAX_VALUE : Math.max(0, cap - used));
        }
    }

    /** Whether a node is configured, not ignored, and was not found down: a launch there may still be answered. */
    public boolean reachable(String node) {
        return reachable.contains(node);
    }

    /**
     * Why no GPU in the cluster could ever hold this job, judged on card totals (never on
     * current free memory), or empty when it could, or when no GPU is known to judge by.
     */
    public Optional<String> unschedulable(Job job) {
        if (job.gpus() <= 0) {
            return Optional.empty();
        }
        return verdicts.computeIfAbsent(job.nodeConstraint() + "|" + job.gpus() + "|" + job.vramMb(), k -> judge(job));
    }

    private Optional<String> judge(Job job) {
        Map<String, List<Budget>> candidates = new LinkedHashMap<>();
        inventory.forEach((node, b) -> {
            if (job.nodeConstraint() == null || job.nodeConstraint().equals(node)) {
                candidates.put(node, b);
            }
        });
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        String where = job.nodeConstraint() != null ? job.nodeConstraint() : null;
        int widest = 0;
        String widestNode = null;
        long largest = 0;
        String largestNode = null;
        for (Map.Entry<String, List<Budget>> e : candidates.entrySet()) {
            if (e.getValue().size() > widest) {
                widest = e.getValue().size();
                widestNode = e.getKey();
            }
            for (Budget b : e.getValue()) {
                if (b.totalMb > largest) {
                    largest = b.totalMb;
                    largestNode = b.node;
                }
            }
        }
        if (job.gpus() > widest) {
            return Optional.of("needs " + job.gpus() + " GPU(s); " + (where != null ? where : widestNode)
                    + " has " + widest + " schedulable GPU(s)");
        }
        long holds = largest - settings.headroomMb();
        if (job.vramMb() > holds) {
            return Optional.of("reserves " + Sizes.format(job.vramMb()) + "; the largest schedulable GPU (on "
                    + largestNode + ", " + Sizes.format(largest) + " with " + Sizes.format(settings.headroomMb())
                    + " headroom) holds " + Sizes.format(Math.max(0, holds)) + " at most");
        }
        int matching = 0;
        String matchingNode = null;
        for (Map.Entry<String, List<Budget>> e : candidates.entrySet()) {
            int k = (int) e.getValue().stream().filter(b -> b.totalMb - settings.headroomMb() >= job.vramMb()).count();
            if (k > matching) {
                matching = k;
                matchingNode = e.getKey();
            }
        }
        if (job.gpus() > matching) {
            return Optional.of("needs " + job.gpus() + " GPUs each reserving " + Sizes.format(job.vramMb()) + "; "
                    + (where != null ? where : matchingNode) + " has at most " + matching + " matching GPUs");
        }
        return Optional.empty();
    }

    /** The best place for the job now, or empty when nothing has room (it waits). */
    public Optional<Choice> choose(Job job, Set<String> excluded) {
        if (job.gpus() <= 0) {
            String best = null;
            int bestLoad = Integer.MAX_VALUE;
            for (String node : schedulable) {
                if (excluded.contains(node) || (job.nodeConstraint() != null && !job.nodeConstraint().equals(node))
                        || cpuSlots.getOrDefault(node, 0) <= 0) {
                    continue;
                }
                int load = gpuJobsPerNode.getOrDefault(node, 0);
                if (load < bestLoad) {
                    best = node;
                    bestLoad = load;
                }
            }
            return best == null ? Optional.empty() : Optional.of(new Choice(best, List.of()));
        }
        if (job.vramMb() > roomiest()) {
            return Optional.empty(); // nothing anywhere has room: skip the per-card scan
        }
        List<GpuBudget> fitting = new ArrayList<>();
        for (String node : schedulable) {
            if (excluded.contains(node) || (job.nodeConstraint() != null && !job.nodeConstraint().equals(node))) {
                continue;
            }
            for (Budget b : inventory.getOrDefault(node, List.of())) {
                if (b.freeMb >= job.vramMb() && b.queueJobs < settings.maxJobsPerGpu()) {
                    fitting.add(new GpuBudget(b.node, b.index, b.freeMb, b.totalMb, b.queueJobs));
                }
            }
        }
        if (fitting.size() < job.gpus()) {
            return Optional.empty();
        }
        Optional<Placement> p = policy.place(new PlacementRequest(job.id(), job.gpus(), job.vramMb()), fitting);
        return p.map(x -> new Choice(x.node(), x.gpuIds()));
    }

    /**
     * A lane's head on the lane's own cards, or empty when the node takes no work now or a card
     * lacks room (the lane waits: it never steps over its head).
     */
    public Optional<Choice> chooseExact(Job job, String node, List<Integer> gpuIds) {
        if (!schedulable.contains(node)) {
            return Optional.empty();
        }
        for (int index : gpuIds) {
            Budget b = inventory.getOrDefault(node, List.of()).stream().filter(x -> x.index == index).findFirst()
                    .orElse(null);
            if (b == null || b.freeMb < job.vramMb() || b.queueJobs >= settings.maxJobsPerGpu()) {
                return Optional.empty();
            }
        }
        return Optional.of(new Choice(node, List.copyOf(gpuIds)));
    }

    private long roomiest() {
        if (roomiestStale) {
            long best = -1;
            for (String node : schedulable) {
                for (Budget b : inventory.getOrDefault(node, List.of())) {
                    if (b.queueJobs < settings.maxJobsPerGpu() && b.freeMb > best) {
                        best = b.freeMb;
                    }
                }
            }
            roomiest = best;
            roomiestStale = false;
        }
        return roomiest;
    }

    /** Takes a placed job's share out of the budgets of this pass. */
    public void charge(Job job, Choice choice) {
        if (job.gpus() <= 0) {
            cpuSlots.computeIfPresent(choice.node(), (n, v) -> v == Integer.MAX_VALUE ? v : v - 1);
            return;
        }
        gpuJobsPerNode.merge(choice.node(), 1, Integer::sum);
        roomiestStale = true;
        for (Budget b : inventory.getOrDefault(choice.node(), List.of())) {
            if (choice.gpuIds().contains(b.index)) {
                b.freeMb = Math.max(0, b.freeMb - job.vramMb());
                b.queueJobs++;
            }
        }
    }
}
