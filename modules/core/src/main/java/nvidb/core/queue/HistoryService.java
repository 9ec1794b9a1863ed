package nvidb.core.queue;

import java.time.Instant;
import java.util.List;
import nvidb.core.api.History;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;

/** The GPUs' and the queue's history, read in one transaction each; no node is contacted. */
final class HistoryService implements History {
    private final ServiceContext ctx;
    private final Store store;

    HistoryService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
    }

    @Override
    public List<GpuSample> gpu(String node, int index, Range range) {
        String name = ctx.resolveNode(node);
        return store.db.read(() -> store.history.gpu(name, index, range, Instant.now()));
    }

    @Override
    public List<QueueSample> queue(Range range) {
        return store.db.read(() -> store.history.queue(range, Instant.now()));
    }

    @Override
    public List<Usage> usage(UsageKey by, Instant since, Instant until) {
        return store.db.read(() -> store.accounting.usage(by, since.getEpochSecond(), until.getEpochSecond()));
    }

    @Override
    public List<UserGpus> runningGpusByUser() {
        // The users' running jobs as queue status counts them (LabRepository), those with any.
        List<UserGpus> out = new java.util.ArrayList<>();
        for (nvidb.core.store.LabRepository.Active a : store.db.read(store.lab::activeByUser)) {
            if (a.running() > 0) {
                out.add(new UserGpus(a.user(), a.runningGpus()));
            }
        }
        return out;
    }
}
