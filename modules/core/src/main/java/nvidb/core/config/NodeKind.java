package nvidb.core.config;

import java.util.Objects;

/**
 * What a server entry makes of its node, decided once when configuration loads from the plugin
 * its {@code transport:} names: a workstation nvidb starts jobs on, or a partition of a batch
 * system that places them itself.
 */
public sealed interface NodeKind {

    /** The {@code transport:} as written: a transport's name, or a batch scheduler's. */
    String plugin();

    /** The transport that carries the node's scripts: the workstation's own, or the one to a partition's login host. */
    String transport();

    /** A machine nvidb runs scripts on and starts jobs on, reached over {@code transport}. */
    record Workstation(String transport) implements NodeKind {
        public Workstation {
            Objects.requireNonNull(transport, "transport");
        }

        @Override
        public String plugin() {
            return transport;
        }
    }

    /**
     * A batch system's partition: the batch scheduler {@code scheduler} places its jobs; its
     * scripts (sbatch, squeue…) run on the batch system's login host, reached over the transport
     * {@code login}.
     */
    record BatchPartition(String scheduler, String login) implements NodeKind {
        public BatchPartition {
            Objects.requireNonNull(scheduler, "scheduler");
            Objects.requireNonNull(login, "login");
        }

        @Override
        public String plugin() {
            return scheduler;
        }

        @Override
        public String transport() {
            return login;
        }
    }
}
