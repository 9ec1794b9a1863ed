package nvidb.core.scheduler;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import nvidb.core.api.Job;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.config.ServerConfig;

/**
 * Whether a lane may start its next job: the one rule the staging pass, the lane dispatch pass and
 * the lane views share, so that what {@code queue lanes} says is blocking a lane is what the
 * scheduler acts on. Checked in this order: the lane, its node, its cards, its head.
 */
public final class LaneReadiness {
    private LaneReadiness() {
    }

    /**
     * Why neither the lane nor its node take new work now (paused, node not configured, ignored,
     * drained, or not up), or null.
     *
     * @param server the node's configuration, null when it is not configured
     */
    public static String unavailable(LaneRecord lane, NodeRecord node, ServerConfig server) {
        if (lane.paused()) {
            return "paused";
        }
        if (server == null || node == null) {
            return "node " + lane.node() + " is not configured";
        }
        if (node.ignored()) {
            return "node " + lane.node() + " is ignored";
        }
        if (!node.enabled()) {
            return "node " + lane.node() + " is drained";
        }
        return node.state() == NodeState.UP ? null : "node " + lane.node() + " is " + node.state().label();
    }

    /**
     * Whether a lane's cards can take new work: each must be one the node's last probe saw and one
     * its {@code gpu_ids} allowlist admits. A lane named for a card the node lacks (or that
     * nvidia-smi cannot see right now) waits instead of starting jobs with a
     * {@code CUDA_VISIBLE_DEVICES} that names no GPU.
     *
     * @param present the GPU indices the node's last probe saw
     * @return why the lane cannot start work on its cards, or null when it can
     */
    public static String cardsUnusable(LaneRecord lane, Collection<Integer> present, ServerConfig server) {
        List<Integer> allow = server == null ? null : server.gpuIds();
        for (int g : lane.gpuIds()) {
            if (!present.contains(g)) {
                return "node " + lane.node() + " has no GPU " + g + " (the last probe saw "
                        + (present.isEmpty() ? "none" : String.join(",", new TreeSet<>(present).stream()
                                .map(String::valueOf).toList())) + ")";
            }
            if (allow != null && !allow.contains(g)) {
                return "GPU " + g + " of node " + lane.node() + " is not in its gpu_ids allowlist "
                        + allow.stream().map(String::valueOf).toList();
            }
        }
        return null;
    }

    /**
     * Whether the lane's head may start: not held, and its dependencies let it run. A head that
     * may not stops its whole lane: a lane never steps over its head.
     */
    public static boolean headReady(Job head, Map<Long, Job> deps) {
        return !head.held() && DependencyGate.evaluate(head, deps).verdict() == DependencyGate.Verdict.READY;
    }
}
