package nvidb.spi.placement;

import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;

/** Creates a placement policy; {@code queue.placement: NAME} selects one. */
public interface PlacementPolicyFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.PLACEMENT;
    }

    PlacementPolicy create();
}
