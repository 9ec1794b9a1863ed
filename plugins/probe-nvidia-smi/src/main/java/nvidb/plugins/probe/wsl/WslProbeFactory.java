package nvidb.plugins.probe.wsl;

import nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbe;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;

/**
 * {@code probe: wsl}, chosen explicitly or by core when {@code uname -r} names a WSL kernel:
 * GPU memory is real, its attribution to processes is not. The nvidia-smi probe read blind; it
 * keeps its own package so that its class name, which start-up errors print, stays as it was.
 */
public final class WslProbeFactory implements ProbeFactory {

    @Override
    public String name() {
        return "wsl";
    }

    @Override
    public Probe create(ProbeSettings settings) {
        return new NvidiaSmiProbe(settings.nvidiaSmi(), Attribution.BLIND);
    }
}
