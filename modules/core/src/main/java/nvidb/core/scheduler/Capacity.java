package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuSnapshot;

/**
 * The capacity model: what a GPU can still take.
 * {@code free = total − external − reserved − headroom}, where external is memory held by
 * processes the queue did not start, and each queue job is charged the larger of its
 * reservation and its measured use, so an understated {@code --vram} cannot oversubscribe.
 */
public final class Capacity {
    static final int MAX_PROCESSES_SHOWN = 16;

    private Capacity() {
    }

    /** A process's owner and command line, from the node's process table. */
    public record ProcessInfo(int pgid, String user, String command) {
    }

    /**
     * The GPUs of one node with the queue's share worked out, each job's measured use (summed over
     * its GPUs), what one look saw of each running job, and each GPU's power draw in watts where the
     * probe reported one (by GPU index; the history keeps it).
     */
    public record NodeCapacity(List<GpuState> gpus, Map<Long, Long> measuredByJob, Map<Long, Sample> samples,
                               Map<Integer, Double> powerByGpu) {
    }

    /**
     * One look at a running job: the most memory its processes held on any one of its GPUs (null
     * when none was attributed to it: a blind probe, or no process yet), its GPUs' mean
     * utilisation (null when the probe reports none), and its share of its GPUs' power draw in
     * watts: each GPU's draw split evenly among the queue jobs on it, summed over its GPUs (null
     * when none of them reported a draw). This is the one place the split is made.
     */
    public record Sample(Long peakGpuMb, Double utilPercent, Double powerW) {
    }

    public static NodeCapacity account(String node, List<GpuSnapshot> snapshots, Map<Integer, ProcessInfo> processes,
                                       List<Job> runningHere, long headroomMb, Instant now) {
        Map<Integer, Job> byPid = new HashMap<>();
        Map<Integer, Job> byPgid = new HashMap<>();
        for (Job j : runningHere) {
            if (j.remotePid() != null) {
                byPid.put(j.remotePid(), j);
            }
            if (j.remotePgid() != null) {
                byPgid.put(j.remotePgid(), j);
            }
        }
        Map<Long, Long> measuredByJob = new HashMap<>();
        Map<Long, Long> peakByJob = new HashMap<>();
        Map<Long, double[]> utilByJob = new HashMap<>();
        Map<Long, Double> powerByJob = new HashMap<>();
        Map<Integer, Double> powerByGpu = new HashMap<>();
        List<GpuState> out = new ArrayList<>();
        for (GpuSnapshot g : snapshots) {
            long reported = 0;
            long ours = 0;
            int externalProcs = 0;
            Map<Long, Long> measuredHere = new HashMap<>();
            List<GpuState.GpuProcessView> views = new ArrayList<>();
            for (GpuProcess p : g.processes()) {
                long mem = p.memMb() == null ? 0 : p.memMb();
                reported += mem;
                ProcessInfo info = processes.get(p.pid());
                Job job = byPid.get(p.pid());
                if (job == null && info != null) {
                    job = byPgid.get(info.pgid());
                }
                if (job != null) {
                    ours += mem;
                    measuredHere.merge(job.id(), mem, Long::sum);
                } else {
                    externalProcs++;
                }
                views.add(new GpuState.GpuProcessView(p.pid(), p.memMb(), p.name(), info == null ? null : info.user(),
                        job == null ? null : job.id(), job == null ? null : job.name(), job != null));
            }
            List<Job> onGpu = runningHere.stream().filter(j -> j.gpuIds().contains(g.index())).toList();
            long reserved = 0;
            for (Job j : onGpu) {
                reserved += Math.max(j.vramMb(), measuredHere.getOrDefault(j.id(), 0L));
            }
            measuredHere.forEach((id, mb) -> {
                measuredByJob.merge(id, mb, Long::sum);
                peakByJob.merge(id, mb, Math::max);
            });
            if (g.utilPercent() != null) {
                for (Job j : onGpu) {
                    double[] sumAndCount = utilByJob.computeIfAbsent(j.id(), k -> new double[2]);
                    sumAndCount[0] += g.utilPercent();
                    sumAndCount[1]++;
                }
            }
            if (g.powerW() != null) {
                powerByGpu.put(g.index(), g.powerW());
                for (Job j : onGpu) {
                    powerByJob.merge(j.id(), g.powerW() / onGpu.size(), Double::sum);
                }
            }
            long used = g.memUsedMb() == null ? 0 : g.memUsedMb();
            boolean blind = g.attribution() == Attribution.BLIND || (reported == 0 && !onGpu.isEmpty() && used > 0);
            long external = blind ? Math.max(0, used - reserved) : Math.max(0, used - ours);
            long total = g.memTotalMb() == null ? 0 : g.memTotalMb();
            long free = Math.max(0, total - external - reserved - headroomMb);
            // Most memory first; written out, not Comparator.comparing (StartupRules: every pass sorts).
            views.sort((a, b) -> Long.compare(memMb(b), memMb(a)));
            List<GpuState.GpuProcessView> shown = views.size() > MAX_PROCESSES_SHOWN
                    ? views.subList(0, MAX_PROCESSES_SHOWN) : views;
            out.add(new GpuState(node, g.index(), g.uuid(), g.name(), g.memTotalMb(), g.memUsedMb(), g.utilPercent(),
                    g.memUtilPercent(), g.temperatureC(), external, externalProcs, ours, reserved, onGpu.size(),
                    blind ? Attribution.BLIND.label() : Attribution.PROCESSES.label(), shown, free, now));
        }
        Map<Long, Sample> samples = new HashMap<>();
        for (Job j : runningHere) {
            double[] util = utilByJob.get(j.id());
            samples.put(j.id(), new Sample(peakByJob.get(j.id()), util == null ? null : util[0] / util[1],
                    powerByJob.get(j.id())));
        }
        return new NodeCapacity(out, measuredByJob, samples, powerByGpu);
    }

    private static long memMb(GpuState.GpuProcessView v) {
        return v.memMb() == null ? 0 : v.memMb();
    }
}
