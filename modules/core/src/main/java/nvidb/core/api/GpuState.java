package nvidb.core.api;

import java.time.Instant;
import java.util.List;

/**
 * One GPU as the last probe saw it, with the queue's accounting. Memory in MiB; null where the
 * driver could not say.
 *
 * @param externalMemMb memory held by processes the queue did not start
 * @param queueMemMb    memory measured on the queue's own jobs
 * @param reservedMb    what the queue promised its jobs here: each job the larger of its
 *                      reservation and its measured use
 * @param freeMb        total − external − reserved − headroom, never negative
 */
public record GpuState(String node, int index, String uuid, String name, Integer memTotalMb, Integer memUsedMb,
                       Integer utilPercent, Integer memUtilPercent, Integer temperatureC, long externalMemMb,
                       int externalProcs, long queueMemMb, long reservedMb, int queueJobs, String attribution,
                       List<GpuProcessView> processes, long freeMb, Instant updatedAt) {
    public GpuState {
        processes = List.copyOf(processes);
    }

    public Integer memUsedPercent() {
        if (memTotalMb == null || memUsedMb == null || memTotalMb <= 0) {
            return null;
        }
        return (int) Math.round(100.0 * memUsedMb / memTotalMb);
    }

    /** A process on a GPU, and whose it is. */
    public record GpuProcessView(int pid, Integer memMb, String name, String user, Long jobId, String jobName,
                                 boolean managed) {
    }
}
