package nvidb.core.view;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.GpuState;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.Times;

/** A node with its GPUs. */
public record NodeView(String name, String hostname, Integer port, String username, String state, boolean enabled,
                       boolean ignored, String lastSeen, String lastError, int gpuCount, String probedAt,
                       List<Gpu> gpus) {

    /** {@code allowlistOnly} hides cards outside {@code gpus:} that carry no queue job. */
    public static NodeView of(NodeAdmin.NodeView v, boolean allowlistOnly) {
        NodeRecord n = v.node();
        List<Gpu> gpus = new ArrayList<>();
        for (GpuState g : v.gpus()) {
            boolean allowed = v.allowlist() == null || v.allowlist().contains(g.index());
            if (!allowlistOnly || allowed || g.queueJobs() > 0) {
                gpus.add(Gpu.of(g));
            }
        }
        return new NodeView(n.name(), n.hostname(), n.port(), n.username(), n.state().label(), n.enabled(), n.ignored(),
                Times.iso(n.lastSeen()), n.lastError(), n.gpuCount(), Times.iso(n.probedAt()), gpus);
    }

    /** One GPU as the last probe saw it, with the queue's accounting. */
    public record Gpu(String node, int index, String name, Integer memTotalMb, Integer memUsedMb,
                      Integer memUsedPercent, long externalMemMb, int externalProcs, long queueMemMb,
                      String attribution, long reservedMb, int queueJobs, long freeMb, Integer utilPercent,
                      Integer memUtilPercent, Integer temperatureC, List<Process> processes, String updatedAt) {
        public static Gpu of(GpuState g) {
            return new Gpu(g.node(), g.index(), g.name(), g.memTotalMb(), g.memUsedMb(), g.memUsedPercent(),
                    g.externalMemMb(), g.externalProcs(), g.queueMemMb(), g.attribution(), g.reservedMb(), g.queueJobs(),
                    g.freeMb(), g.utilPercent(), g.memUtilPercent(), g.temperatureC(),
                    g.processes().stream().map(Process::of).toList(), Times.iso(g.updatedAt()));
        }
    }

    /** A process on a GPU and whose it is; {@code type} is the reference's, never known here. */
    public record Process(int pid, Integer memMb, String name, String user, String type, Long jobId, String jobName,
                          boolean managed) {
        static Process of(GpuState.GpuProcessView p) {
            return new Process(p.pid(), p.memMb(), p.name(), p.user(), null, p.jobId(), p.jobName(), p.managed());
        }
    }
}
