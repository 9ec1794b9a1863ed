package nvidb.plugins.probe.nvidiasmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.ServiceLoader;
import nvidb.spi.PluginKind;
import nvidb.spi.probe.ProbeFactory;
import org.junit.jupiter.api.Test;

class NvidiaSmiProbeFactoryTest {

    @Test
    void isFoundByServiceLoaderUnderItsName() {
        List<ProbeFactory> found = ServiceLoader.load(ProbeFactory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertEquals(List.of("nvidia-smi"), found.stream().map(ProbeFactory::name).toList());
        assertEquals(PluginKind.PROBE, found.getFirst().kind());
    }
}
