package nvidb.plugins.probe.nvidiasmi;

import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.Probe;

/**
 * Both nvidia-smi probes: the same two queries, read with the attribution the factory asks for.
 * {@link Attribution#PROCESSES}: a process's memory is the number nvidia-smi prints, or null for a
 * cell such as {@code [N/A]}. {@link Attribution#BLIND} (WSL): every GPU is blind and every
 * process's memory null, whatever number the driver prints (it credits memory to no process, or
 * prints {@code [N/A]}, or a figure that does not add up); memory.used stays real, so core infers
 * the foreign share from its reservations. The script is built once per probe.
 *
 * <p>Public only so that {@code nvidb.plugins.probe.wsl} in this module can build one; the module
 * exports neither package.
 */
public final class NvidiaSmiProbe implements Probe {

    private final String command;
    private final Attribution attribution;
    private final String script;

    public NvidiaSmiProbe(String command, Attribution attribution) {
        this.command = command;
        this.attribution = attribution;
        this.script = SmiSection.script(command);
    }

    @Override
    public String script() {
        return script;
    }

    @Override
    public String freeMemoryScript() {
        return SmiSection.freeMemoryScript(command);
    }

    @Override
    public GpuReport parse(String output) {
        return SmiSection.parse(output, command, attribution);
    }
}
