package nvidb.plugins.placement;

import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;

/**
 * {@code queue.placement: pack}: a job goes to the fullest GPUs that still fit it, so whole cards
 * stay empty for the large jobs that need them.
 */
public final class PackPolicyFactory implements PlacementPolicyFactory {

    @Override
    public String name() {
        return "pack";
    }

    @Override
    public PlacementPolicy create() {
        return new RankedPolicy(RankedPolicy.Prefer.LEAST_ROOM);
    }
}
