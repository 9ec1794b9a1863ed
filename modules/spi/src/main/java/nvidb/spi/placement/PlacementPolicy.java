package nvidb.spi.placement;

import java.util.List;
import java.util.Optional;

/**
 * Chooses where one job runs, given the budgets of the GPUs that could take it. Core has already
 * removed GPUs that are drained, full, over their job limit or outside the job's pin; the policy
 * only chooses among what fits, which keeps every policy small and the capacity rules in one place.
 */
public interface PlacementPolicy {

    /**
     * @param request    what the job needs
     * @param candidates every schedulable GPU, grouped by node in configuration order; each already
     *                   has room for {@code request.vramMb()}
     * @return the chosen node and exactly {@code request.gpus()} GPU indices on it, or empty when
     *         no node offers enough candidates
     */
    Optional<Placement> place(PlacementRequest request, List<GpuBudget> candidates);
}
