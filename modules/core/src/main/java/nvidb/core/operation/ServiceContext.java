package nvidb.core.operation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import nvidb.core.api.Job;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.config.QueueConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.NodeConnections;
import nvidb.core.scheduler.NodeKills;
import nvidb.core.store.Store;

/**
 * What the command and query objects of one open queue share: the store, the configuration, the
 * node connections, the one lifecycle, the operation lease, and the tick of the queue that made
 * them. Also the few lookups more than one of them needs, so each is written once.
 */
public record ServiceContext(Store store, QueueConfig config, Map<String, String> env, NodeConnections nodes,
                             JobLifecycle lifecycle, NodeKills kills, OperationLease lease,
                             Function<TickMode, TickSummary> ticker) {

    public TickSummary tick(TickMode mode) {
        return ticker.apply(mode);
    }

    /** Resolves a typed node name against every node the database knows. */
    public String resolveNode(String typed) {
        List<String> names = store.db.read(() -> store.nodes.all().stream().map(NodeRecord::name).toList());
        return NodeNames.resolve(typed, names, "node");
    }

    public Job job(long id) {
        return store.db.read(() -> store.jobs.find(id))
                .orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
    }

    public void requireJobsExist(List<Long> ids) {
        Set<Long> found = new HashSet<>();
        store.jobs.byIds(new LinkedHashSet<>(ids)).forEach(j -> found.add(j.id()));
        for (long id : ids) {
            if (!found.contains(id)) {
                throw NvidbException.notFound("dependency job " + id + " does not exist");
            }
        }
    }

    /** A command's own change is seen at once: an automatic tick after it is a forced one. */
    public static TickMode forced(TickMode after) {
        return after == TickMode.AUTO ? TickMode.FORCE : after;
    }

    public static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    public static String csv(List<Long> ids) {
        return ids.isEmpty() ? "-" : String.join(",", ids.stream().map(String::valueOf).toList());
    }

    public static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    public static String truncate(String s, int n) {
        String oneLine = s.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= n ? oneLine : oneLine.substring(0, n - 1) + "…";
    }
}
