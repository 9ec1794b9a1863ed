package nvidb.core.api;

import java.util.List;

/**
 * The nodes as the queue sees them, and what a person does to one: drain or resume it, ignore it
 * or bring it back. Jobs already running on a node are never touched here.
 */
public interface NodeAdmin {
    /** A node and its GPUs as the last probe saw them. */
    record NodeView(NodeRecord node, List<GpuState> gpus, List<Integer> allowlist) {
    }

    List<NodeView> nodes(boolean includeIgnored);

    long pendingReaps();

    /** Drains (no new work) or resumes a node; jobs already running there are left alone. */
    NodeRecord setDrained(String typed, boolean drained);

    /** Ignores a node (no probe, no work, hidden) or brings it back; refused while it runs jobs. */
    NodeRecord setIgnored(String typed, boolean ignored);
}
