package nvidb.spi.probe;

import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.config.ConfigSection;

/** Creates a GPU probe; {@code probe: NAME} on a server entry selects one. */
public interface ProbeFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.PROBE;
    }

    /**
     * Checks the probe's own keys of a server entry that names it with {@code probe:}, when
     * configuration loads (an entry without {@code probe:} gets its probe chosen by the node at
     * run time, and is not handed over). The probe reads, or declares with
     * {@link ConfigSection#know}, every key of its own; see {@link
     * nvidb.spi.transport.TransportFactory#validate}. The default checks nothing and knows no key.
     *
     * @param server the whole entry as written, its path {@code servers[N]}
     * @throws nvidb.spi.config.ConfigException a key of this probe is wrong or missing
     */
    default void validate(ConfigSection server) {
    }

    Probe create(ProbeSettings settings);
}
