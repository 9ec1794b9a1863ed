package nvidb.core.node;

import java.util.Objects;
import nvidb.core.config.ServerConfig;
import nvidb.spi.batch.BatchScheduler;

/**
 * A configured node as the scheduler passes meet it, made once from its entry's
 * {@link nvidb.core.config.NodeKind}: the passes select what to do by this type, not by asking
 * again and again whether a node is a batch node.
 */
public sealed interface ConfiguredNode {

    ServerConfig server();

    default String name() {
        return server().name();
    }

    /** A machine nvidb starts jobs on, probes the GPUs of and stops jobs on by their process group. */
    record Workstation(ServerConfig server) implements ConfiguredNode {
        public Workstation {
            Objects.requireNonNull(server, "server");
        }
    }

    /**
     * A batch system's partition: {@code scheduler} places the jobs handed to it, says how they
     * stand and cancels them; its scripts run on the batch system's login host.
     */
    record BatchPartition(ServerConfig server, BatchScheduler scheduler) implements ConfiguredNode {
        public BatchPartition {
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(scheduler, "scheduler");
        }
    }
}
