package nvidb.plugins.probe.wsl;

import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.Probe;

/**
 * The same two nvidia-smi queries as the {@code nvidia-smi} probe (the default command falls back
 * to {@code /usr/lib/wsl/lib/nvidia-smi}, usually off a non-interactive PATH), read blind: every
 * GPU is {@link Attribution#BLIND} and every process's memory null, whatever number the WSL
 * driver prints (it credits memory to no process, or prints {@code [N/A]}, or a figure that does
 * not add up). memory.used stays real, so core infers the foreign share from its reservations.
 */
final class WslProbe implements Probe {

    private final String command;
    private final String script;

    WslProbe(String command) {
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
        return SmiSection.parse(output, command, true);
    }
}
