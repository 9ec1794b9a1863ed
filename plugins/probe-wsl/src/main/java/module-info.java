/**
 * The {@code wsl} probe: nvidia-smi under WSL 2, where the driver credits GPU memory to no
 * process (blind attribution). Nothing is exported: core reaches the factory only through
 * {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.probe.wsl {
    requires nvidb.spi;

    provides nvidb.spi.probe.ProbeFactory with nvidb.plugins.probe.wsl.WslProbeFactory;
}
