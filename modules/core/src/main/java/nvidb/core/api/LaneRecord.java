package nvidb.core.api;

import java.time.Instant;
import java.util.List;

/** A lane: one GPU (or a fixed set on one node) and the order it runs its jobs in. */
public record LaneRecord(String name, String node, List<Integer> gpuIds, boolean paused, int concurrency,
                         boolean runner, String runnerStateJson, Instant runnerSeenAt, Instant createdAt,
                         Instant updatedAt) {
    public LaneRecord {
        gpuIds = List.copyOf(gpuIds);
    }
}
