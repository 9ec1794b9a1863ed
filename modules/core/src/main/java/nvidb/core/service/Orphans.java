package nvidb.core.service;

import java.time.Instant;
import nvidb.core.model.Job;
import nvidb.core.store.Store;

/** Kill obligations for processes of jobs that ended in the database but may still run on a node. */
final class Orphans {
    private Orphans() {
    }

    static void record(Store store, Job job, String reason, Instant now) {
        store.orphans().add(job.id(), job.node(), job.runDir(), job.remotePid(), job.remotePgid(), reason, now);
    }
}
