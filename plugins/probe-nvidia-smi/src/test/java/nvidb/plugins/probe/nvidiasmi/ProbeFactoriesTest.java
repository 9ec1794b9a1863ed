package nvidb.plugins.probe.nvidiasmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.ServiceLoader;
import nvidb.plugins.probe.wsl.WslProbeFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;
import org.junit.jupiter.api.Test;

/** The module's two probe factories: how core finds them, and what they share. */
class ProbeFactoriesTest {

    static final String OUTPUT = Sections.ok("0, GPU-a, NVIDIA RTX A4000, 16376, 9000, 5, 1, 40\n",
            "812, GPU-a, 8000, python\n");

    @Test
    void bothAreFoundByServiceLoaderUnderTheirNames() {
        List<ProbeFactory> found = ServiceLoader.load(ProbeFactory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertEquals(List.of("nvidia-smi", "wsl"), found.stream().map(ProbeFactory::name).sorted().toList());
        found.forEach(f -> assertEquals(PluginKind.PROBE, f.kind(), f.name()));
    }

    @Test
    void theNamesBelongToTheirFactories() {
        assertEquals("nvidia-smi", new NvidiaSmiProbeFactory().name());
        assertEquals("wsl", new WslProbeFactory().name());
    }

    /** One parser for both: the same questions go to the node, only the attribution differs. */
    @Test
    void wslIsTheNvidiaSmiProbeReadBlind() {
        ProbeSettings settings = new ProbeSettings("/opt/nvidia tools/nvidia-smi");
        Probe smi = new NvidiaSmiProbeFactory().create(settings);
        Probe wsl = new WslProbeFactory().create(settings);
        assertEquals(smi.script(), wsl.script());
        assertEquals(smi.freeMemoryScript(), wsl.freeMemoryScript());
        assertNotEquals(smi.parse(OUTPUT), wsl.parse(OUTPUT));
        assertEquals(smi.parse(OUTPUT).gpus().getFirst().memUsedMb(), wsl.parse(OUTPUT).gpus().getFirst().memUsedMb());
    }
}
