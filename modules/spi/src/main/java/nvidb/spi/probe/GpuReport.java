package nvidb.spi.probe;

import java.util.List;

/**
 * What a probe saw: the GPUs, or why it saw none.
 *
 * @param error null when the tool answered; else a sentence such as "nvidia-smi not found"
 */
public record GpuReport(List<GpuSnapshot> gpus, String error) {
    public GpuReport {
        gpus = List.copyOf(gpus);
    }

    public static GpuReport failed(String error) {
        return new GpuReport(List.of(), error);
    }
}
