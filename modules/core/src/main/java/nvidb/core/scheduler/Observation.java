package nvidb.core.scheduler;

import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.NodeRecord;
import nvidb.core.node.NodeReport;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.probe.GpuReport;

/**
 * What one node's worker thread of the refresh pass brought back, applied to the database on the
 * tick's thread. Its type says which passes apply it: a node that did not answer goes down; a
 * workstation's job directories are settled and its GPUs accounted; a batch partition's jobs are
 * settled with its batch system's word, and its GPUs are the partition's.
 */
sealed interface Observation {
    NodeRecord node();

    /** The jobs nvidb has running there. */
    List<Job> running();

    /** The jobs handed there that have not started: staged for a lane runner, or pending in a batch system. */
    List<Job> staged();

    /** The node did not answer, or is no longer configured. */
    record Unreachable(NodeRecord node, List<Job> running, List<Job> staged, String reason) implements Observation {
    }

    /**
     * A workstation's answer.
     *
     * @param reaped each orphan asked to be killed, and whether a signal went out
     */
    record Reached(NodeRecord node, List<Job> running, List<Job> staged, NodeReport report, GpuReport gpus,
                   Map<Long, Boolean> reaped) implements Observation {
    }

    /**
     * A batch partition's answer: the job directories, and its scheduler's one poll in place of a GPU probe.
     *
     * @param reaped each cancel owed there, and whether it went out
     */
    record BatchReached(NodeRecord node, List<Job> running, List<Job> staged, NodeReport report, BatchPoll poll,
                        BatchScheduler scheduler, Map<Long, Boolean> reaped) implements Observation {
    }
}
