package nvidb.core.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Job;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.TickSummary;
import nvidb.core.node.NodeConnections;
import nvidb.core.store.Store;

/**
 * Lanes whose runner is off: the controller starts each lane's head itself, in lane order, once
 * fewer than its concurrency of its jobs run and its cards have room. A lane never steps over its
 * head: a held or waiting head, an unavailable lane or a full card stops the whole lane. (Lanes
 * with a runner on are supplied by {@link LaneStagingPass}.)
 */
final class LaneDispatchPass {
    private final Store store;
    private final NodeConnections nodes;
    private final Launcher launcher;

    LaneDispatchPass(Store store, NodeConnections nodes, Launcher launcher) {
        this.store = store;
        this.nodes = nodes;
        this.launcher = launcher;
    }

    void run(DispatchRound round, TickSummary.Builder summary) {
        for (Map.Entry<String, List<Job>> e : round.laneQueues().entrySet()) {
            LaneRecord lane = store.db.read(() -> store.lanes.find(e.getKey())).orElse(null);
            if (lane == null || lane.runner()) {
                continue;
            }
            NodeRecord node = store.db.read(() -> store.nodes.find(lane.node())).orElse(null);
            if (LaneReadiness.unavailable(lane, node, nodes.server(lane.node()).orElse(null)) != null) {
                continue;
            }
            long busy = round.running().stream().filter(j -> e.getKey().equals(j.lane())).count();
            for (Job head : e.getValue()) {
                if (busy >= lane.concurrency() || !LaneReadiness.headReady(head, round.deps())
                        || !round.admits(head)) {
                    break; // a lane never steps over its head, nor over a run its sweep's limit holds back
                }
                Optional<PlacementPlanner.Choice> choice = round.planner().chooseExact(head, lane.node(), lane.gpuIds());
                if (choice.isEmpty() || !launcher.launchOn(head, choice.get(), round.planner(), summary)) {
                    break;
                }
                round.charge(head);
                busy++;
            }
        }
    }
}
