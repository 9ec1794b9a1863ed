/**
 * The {@code slurm} transport: a Slurm partition as one node of the queue. Scripts run on the
 * cluster's login (this host, or over SSH through the {@code ssh} transport core opens for it);
 * jobs go in with {@code sbatch}, and one {@code squeue} a pass says how they stand. Nothing is
 * exported; core finds it through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.slurm {
    requires nvidb.spi;

    provides nvidb.spi.transport.TransportFactory with nvidb.plugins.slurm.SlurmTransportFactory;
}
