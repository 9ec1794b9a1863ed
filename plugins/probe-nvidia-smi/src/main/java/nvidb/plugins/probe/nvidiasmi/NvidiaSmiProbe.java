package nvidb.plugins.probe.nvidiasmi;

import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.Probe;

/**
 * Every GPU with {@link Attribution#PROCESSES}; a process's memory is the number nvidia-smi
 * prints, or null for a cell such as {@code [N/A]}. The script is built once per probe.
 */
final class NvidiaSmiProbe implements Probe {

    private final String command;
    private final String script;

    NvidiaSmiProbe(String command) {
        this.command = command;
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
        return SmiSection.parse(output, command, false);
    }
}
