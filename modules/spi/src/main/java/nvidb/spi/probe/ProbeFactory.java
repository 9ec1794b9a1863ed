package nvidb.spi.probe;

import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;

/** Creates a GPU probe; {@code probe: NAME} on a server entry selects one. */
public interface ProbeFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.PROBE;
    }

    Probe create(ProbeSettings settings);
}
