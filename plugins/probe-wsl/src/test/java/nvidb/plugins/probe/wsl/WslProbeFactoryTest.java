package nvidb.plugins.probe.wsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.ServiceLoader;
import nvidb.spi.PluginKind;
import nvidb.spi.probe.ProbeFactory;
import org.junit.jupiter.api.Test;

class WslProbeFactoryTest {

    @Test
    void isFoundByServiceLoaderUnderItsName() {
        List<ProbeFactory> found = ServiceLoader.load(ProbeFactory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertEquals(List.of("wsl"), found.stream().map(ProbeFactory::name).toList());
        assertEquals(PluginKind.PROBE, found.getFirst().kind());
    }
}
