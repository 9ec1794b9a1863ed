package nvidb.spi.probe;

import java.util.List;
import java.util.Objects;

/**
 * One GPU as the driver reports it. Numbers the driver could not give are null.
 *
 * @param attribution whether memory is credited per process or not at all (WSL)
 */
public record GpuSnapshot(int index, String uuid, String name, Integer memTotalMb, Integer memUsedMb,
                          Integer utilPercent, Integer memUtilPercent, Integer temperatureC,
                          Attribution attribution, List<GpuProcess> processes) {
    public GpuSnapshot {
        Objects.requireNonNull(attribution, "attribution");
        processes = List.copyOf(processes);
    }
}
