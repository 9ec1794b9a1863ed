/**
 * The {@code nvidia-smi} probe: reads a node's GPUs and their compute processes with two CSV
 * queries of nvidia-smi, memory credited per process. Nothing is exported: core reaches the
 * factory only through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.probe.nvidiasmi {
    requires nvidb.spi;

    provides nvidb.spi.probe.ProbeFactory with nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbeFactory;
}
