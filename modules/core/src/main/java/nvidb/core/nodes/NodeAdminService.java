package nvidb.core.nodes;

import static nvidb.core.operation.ServiceContext.csv;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.operation.OperationLease;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;

/**
 * The nodes as the queue sees them, and what a person does to one: drain or resume it, ignore it
 * or bring it back. Jobs already running on a node are never touched here.
 */
public final class NodeAdminService implements NodeAdmin {
    private final ServiceContext ctx;
    private final Store store;
    private final QueueConfig config;
    private final OperationLease lease;

    public NodeAdminService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.config = ctx.config();
        this.lease = ctx.lease();
    }

    @Override
    public List<NodeView> nodes(boolean includeIgnored) {
        List<GpuState> gpus = store.db.read(() -> store.gpus.all(config.settings().headroomMb()));
        List<NodeView> out = new ArrayList<>();
        for (NodeRecord n : store.db.read(store.nodes::all)) {
            if (n.ignored() && !includeIgnored) {
                continue;
            }
            List<Integer> allow = ctx.nodes().server(n.name()).map(ServerConfig::gpuIds).orElse(null);
            out.add(new NodeView(n, gpus.stream().filter(g -> g.node().equals(n.name())).toList(), allow));
        }
        return out;
    }

    @Override
    public long pendingReaps() {
        return store.db.read(() -> store.orphans().count());
    }

    @Override
    public NodeRecord setDrained(String typed, boolean drained) {
        String name = ctx.resolveNode(typed);
        NodeRecord node = lease.run(drained ? "drain" : "resume", () -> store.db.write(() -> {
            store.nodes.setEnabled(name, !drained);
            return store.nodes.find(name).orElseThrow();
        }));
        if (drained && stagedOn(name)) {
            ctx.tick(TickMode.FORCE); // a runner holding a job of this node gives it back now, not at some later pass
        }
        return node;
    }

    /** Whether a lane runner on the node holds a job (a pending lane job with a run directory). */
    private boolean stagedOn(String node) {
        return store.db.read(() -> {
            Set<String> lanes = new HashSet<>();
            store.lanes.all().stream().filter(l -> l.node().equals(node)).forEach(l -> lanes.add(l.name()));
            return store.jobs.staged().stream().anyMatch(j -> lanes.contains(j.lane()));
        });
    }

    @Override
    public NodeRecord setIgnored(String typed, boolean ignored) {
        String name = ctx.resolveNode(typed);
        return lease.run(ignored ? "ignore" : "unignore", () -> store.db.write(() -> {
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
}
