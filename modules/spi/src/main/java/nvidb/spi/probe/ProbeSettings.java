package nvidb.spi.probe;

import java.util.Objects;

/** @param nvidiaSmi the command that runs nvidia-smi on the node ({@code nvidia_smi:}) */
public record ProbeSettings(String nvidiaSmi) {
    public ProbeSettings {
        Objects.requireNonNull(nvidiaSmi, "nvidiaSmi");
    }
}
