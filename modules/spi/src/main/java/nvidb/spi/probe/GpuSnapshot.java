package nvidb.spi.probe;

import java.util.List;
import java.util.Objects;

/**
 * One GPU as the driver reports it. Numbers the driver could not give are null.
 *
 * @param attribution whether memory is credited per process or not at all (WSL)
 * @param powerW      the board's power draw in watts ({@code power.draw}); null where the driver does not
 *                    report it ({@code [N/A]}, {@code [Not Supported]}) or the probe does not ask
 */
public record GpuSnapshot(int index, String uuid, String name, Integer memTotalMb, Integer memUsedMb,
                          Integer utilPercent, Integer memUtilPercent, Integer temperatureC,
                          Attribution attribution, List<GpuProcess> processes, Double powerW) {
    public GpuSnapshot {
        Objects.requireNonNull(attribution, "attribution");
        processes = List.copyOf(processes);
    }

    /** A GPU whose power draw is not known (the form before {@code powerW}; a probe that does not read it). */
    public GpuSnapshot(int index, String uuid, String name, Integer memTotalMb, Integer memUsedMb,
                       Integer utilPercent, Integer memUtilPercent, Integer temperatureC,
                       Attribution attribution, List<GpuProcess> processes) {
        this(index, uuid, name, memTotalMb, memUsedMb, utilPercent, memUtilPercent, temperatureC, attribution,
                processes, null);
    }
}
