package nvidb.spi.placement;

import java.util.Objects;

/**
 * One GPU's schedulable room at this moment of a dispatch pass.
 *
 * @param freeMb    total − external − reserved − headroom, never negative
 * @param totalMb   the card's memory, for policies that weigh by size
 * @param queueJobs queue jobs already placed on this GPU
 */
public record GpuBudget(String node, int index, long freeMb, long totalMb, int queueJobs) {
    public GpuBudget {
        Objects.requireNonNull(node, "node");
    }
}
