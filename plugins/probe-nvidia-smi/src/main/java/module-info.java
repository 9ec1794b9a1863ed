/**
 * The nvidia-smi probes: a node's GPUs and their compute processes read with two CSV queries of
 * nvidia-smi. Two factories share one parser and differ only in attribution: {@code nvidia-smi}
 * credits memory per process, {@code wsl} (WSL 2, whose driver credits memory to no process) reads
 * the same answer blind. Nothing is exported: core reaches the factories only through
 * {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.probe.nvidiasmi {
    requires nvidb.spi;

    provides nvidb.spi.probe.ProbeFactory with
            nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbeFactory,
            nvidb.plugins.probe.wsl.WslProbeFactory;
}
