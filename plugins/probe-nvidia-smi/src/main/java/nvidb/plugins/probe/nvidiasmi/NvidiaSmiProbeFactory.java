package nvidb.plugins.probe.nvidiasmi;

import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;

/** {@code probe: nvidia-smi}, the default on a Linux node: memory is credited per process. */
public final class NvidiaSmiProbeFactory implements ProbeFactory {

    @Override
    public String name() {
        return "nvidia-smi";
    }

    @Override
    public Probe create(ProbeSettings settings) {
        return new NvidiaSmiProbe(settings.nvidiaSmi(), Attribution.PROCESSES);
    }
}
