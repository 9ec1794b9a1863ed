package nvidb.core.scheduler;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import nvidb.core.config.ServerConfig;
import nvidb.core.model.LaneRecord;

/**
 * Whether a lane's cards can take new work: each must be one the node's last probe saw and one its
 * {@code gpu_ids} allowlist admits. A lane named for a card the node lacks (or that nvidia-smi
 * cannot see right now) waits instead of starting jobs with a {@code CUDA_VISIBLE_DEVICES} that
 * names no GPU.
 */
public final class LaneCards {
    private LaneCards() {
    }

    /**
     * @param present the GPU indices the node's last probe saw
     * @return why the lane cannot start work on its cards, or null when it can
     */
    public static String unusable(LaneRecord lane, Collection<Integer> present, ServerConfig server) {
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
}
