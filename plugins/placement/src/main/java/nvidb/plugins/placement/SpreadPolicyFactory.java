package nvidb.plugins.placement;

import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;

/**
 * {@code queue.placement: spread} (the default): a job goes to the GPUs with the most free memory,
 * so jobs share cards as little as possible and each one keeps the most room to grow.
 */
public final class SpreadPolicyFactory implements PlacementPolicyFactory {

    @Override
    public String name() {
        return "spread";
    }

    @Override
    public PlacementPolicy create() {
        return new RankedPolicy(RankedPolicy.Prefer.MOST_ROOM);
    }
}
