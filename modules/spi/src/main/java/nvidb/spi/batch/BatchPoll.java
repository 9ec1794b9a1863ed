package nvidb.spi.batch;

import java.util.Map;

/**
 * What one poll learned: the jobs asked about that the batch system still knows (a job missing
 * here is unknown to it), and the node's GPUs.
 *
 * @param gpusTotal     GPUs of the node's usable machines
 * @param gpusAllocated of those, allocated to any job
 * @param gpusIdle      of those, free now
 */
public record BatchPoll(Map<String, BatchJobState> jobs, int gpusTotal, int gpusAllocated, int gpusIdle) {
    public BatchPoll {
        jobs = Map.copyOf(jobs);
    }
}
