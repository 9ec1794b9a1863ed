/**
 * The {@code slurm} batch scheduler: a Slurm partition as one node of the queue
 * ({@code transport: slurm}). It writes the shell that runs on the cluster's login (this host, or
 * over SSH, through the transport core opens there): jobs go in with {@code sbatch}, and one
 * {@code squeue} and one {@code sinfo} a pass say how they stand. Nothing is exported; core finds
 * it through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.slurm {
    requires nvidb.spi;

    provides nvidb.spi.batch.BatchSchedulerFactory with nvidb.plugins.slurm.SlurmSchedulerFactory;
}
