package nvidb.plugins.probe.wsl;

import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;

/**
 * {@code probe: wsl}, chosen explicitly or by core when {@code uname -r} names a WSL kernel:
 * GPU memory is real, its attribution to processes is not.
 */
public final class WslProbeFactory implements ProbeFactory {

    @Override
    public String name() {
        return "wsl";
    }

    @Override
    public Probe create(ProbeSettings settings) {
        return new WslProbe(settings.nvidiaSmi());
    }
}
