package nvidb.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;
import org.junit.jupiter.api.Test;

/** Batch schedulers are a kind of their own, whose names share the transports' {@code transport:} key. */
class PluginRegistryTest {
    private record Batch(String name) implements BatchSchedulerFactory {
        @Override
        public BatchScheduler create(Map<String, Object> entry) {
            throw new UnsupportedOperationException();
        }
    }

    private record Carrier(String name) implements TransportFactory {
        @Override
        public Transport open(NodeAddress address) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aBatchSchedulerIsFiledUnderItsOwnKind() {
        PluginRegistry r = PluginRegistry.of(List.of(new PluginEntry(new Batch("pbs"), "test"),
                new PluginEntry(new Carrier("ssh"), "test")));
        assertEquals(Set.of("pbs"), r.names(PluginKind.BATCH_SCHEDULER));
        assertEquals(Set.of("ssh"), r.names(PluginKind.TRANSPORT));
        assertTrue(r.find(BatchSchedulerFactory.class, PluginKind.BATCH_SCHEDULER, "pbs").isPresent());
        assertTrue(r.find(TransportFactory.class, PluginKind.TRANSPORT, "pbs").isEmpty());
    }

    @Test
    void aTransportAndABatchSchedulerOfOneNameFailNamingBoth() {
        NvidbException e = assertThrows(NvidbException.class, () -> PluginRegistry.of(List.of(
                new PluginEntry(new Carrier("pbs"), "a.jar"), new PluginEntry(new Batch("pbs"), "b.jar"))));
        assertEquals(ErrorCode.FAILED, e.code());
        assertTrue(e.getMessage().contains("a transport and a batch_scheduler plugin are both named 'pbs'"), e.getMessage());
        assertTrue(e.getMessage().contains("Carrier (a.jar)") && e.getMessage().contains("Batch (b.jar)"), e.getMessage());
    }
}
