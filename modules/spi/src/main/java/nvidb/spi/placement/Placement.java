package nvidb.spi.placement;

import java.util.List;
import java.util.Objects;

/** A policy's choice: one node and the GPU indices on it. */
public record Placement(String node, List<Integer> gpuIds) {
    public Placement {
        Objects.requireNonNull(node, "node");
        gpuIds = List.copyOf(gpuIds);
    }
}
