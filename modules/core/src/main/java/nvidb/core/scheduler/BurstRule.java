package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Job;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.Sizes;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.store.BatchRepository.BatchJob;
import nvidb.spi.batch.BatchLimits;

/**
 * The one rule that sends a pending job to a batch node (a Slurm partition). A job pinned there
 * ({@code --node}) goes as soon as the node has room for another of nvidb's jobs
 * ({@code max_jobs}). A pool job overflows ("bursts") to a {@code burst: true} node only when no
 * workstation GPU could take it for {@code queue.burst_after} seconds (at once when no workstation
 * could ever hold it), unless it was submitted {@code --no-burst}; and only where it fits: the
 * node's GPU count, {@code --vram} within {@code gpu_vram}, {@code max_jobs} not reached. Built
 * once per pass; {@link #charge} counts each submission of the pass.
 */
final class BurstRule {
    /** A batch node as this pass sees it. */
    record BatchNode(ConfiguredNode.BatchPartition partition, boolean up, int gpus) {
        String name() {
            return partition.name();
        }

        BatchLimits limits() {
            return partition.scheduler().limits();
        }
    }

    private final Map<String, BatchNode> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> held = new HashMap<>();
    private final long burstAfterS;

    /**
     * @param held the nvidb jobs each batch node holds now, pending there or running
     */
    BurstRule(List<NodeRecord> rows, Map<String, ConfiguredNode.BatchPartition> partitions, Map<String, Integer> held,
              long burstAfterS) {
        for (NodeRecord n : rows) {
            ConfiguredNode.BatchPartition p = partitions.get(n.name());
            if (p != null) {
                nodes.put(n.name(), new BatchNode(p, n.state() == NodeState.UP && n.enabled() && !n.ignored(),
                        n.gpuCount()));
            }
        }
        this.held.putAll(held);
        this.burstAfterS = burstAfterS;
    }

    /** Whether the job is pinned to a batch node ({@code --node}): it never runs on a workstation. */
    boolean pinnedToBatch(Job job) {
        return job.nodeConstraint() != null && nodes.containsKey(job.nodeConstraint());
    }

    /** Why the pinned batch node can never take the job, or empty when it can (now or later). */
    Optional<String> neverFits(Job job) {
        BatchNode n = nodes.get(job.nodeConstraint());
        return n == null ? Optional.empty() : misfit(job, n);
    }

    /**
     * Where the job goes now, if anywhere.
     *
     * @param homeNever no workstation could ever hold the job
     * @param row       the job's batch row (when it waits since), or null
     */
    Optional<ConfiguredNode.BatchPartition> target(Job job, BatchJob row, boolean homeNever, Instant now) {
        if (pinnedToBatch(job)) {
            BatchNode n = nodes.get(job.nodeConstraint());
            return n.up() && hasRoom(n) && misfit(job, n).isEmpty() ? Optional.of(n.partition()) : Optional.empty();
        }
        if (job.nodeConstraint() != null || (row != null && row.noBurst())) {
            return Optional.empty();
        }
        boolean waitedEnough = homeNever || burstAfterS == 0 || (row != null && row.waitingSince() != null
                && Duration.between(row.waitingSince(), now).getSeconds() >= burstAfterS);
        if (!waitedEnough) {
            return Optional.empty();
        }
        return nodes.values().stream().filter(n -> n.limits().burst() && n.up() && hasRoom(n) && misfit(job, n).isEmpty())
                .map(BatchNode::partition).findFirst();
    }

    /** Whether some {@code burst: true} node could take the job, now or once it has room. */
    boolean couldEverTake(Job job, BatchJob row) {
        return job.nodeConstraint() == null && (row == null || !row.noBurst())
                && nodes.values().stream().anyMatch(n -> n.limits().burst() && misfit(job, n).isEmpty());
    }

    /** Whether any node takes overflow: only then is a waiting pool job's first wait worth recording. */
    boolean anyBurstNode() {
        return nodes.values().stream().anyMatch(n -> n.limits().burst());
    }

    void charge(String node) {
        held.merge(node, 1, Integer::sum);
    }

    private boolean hasRoom(BatchNode n) {
        return n.limits().maxJobs() == 0 || held.getOrDefault(n.name(), 0) < n.limits().maxJobs();
    }

    private static Optional<String> misfit(Job job, BatchNode n) {
        if (n.gpus() > 0 && job.gpus() > n.gpus()) {
            return Optional.of("needs " + job.gpus() + " GPU(s); " + n.name() + " has " + n.gpus());
        }
        long vram = n.limits().gpuVramMb();
        if (vram > 0 && job.vramMb() > vram) {
            return Optional.of("reserves " + Sizes.format(job.vramMb()) + " per GPU; a GPU of " + n.name() + " has "
                    + Sizes.format(vram) + " (gpu_vram)");
        }
        return Optional.empty();
    }
}
