package nvidb.core.scheduler;

import java.time.Duration;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeScripts;
import nvidb.core.util.Texts;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/** Stopping a job's processes on its node (or cancelling it in a batch node's scheduler), and reading the end of its log first. */
public final class NodeKills {
    /** Seconds between TERM and KILL when a job is stopped. */
    static final int KILL_GRACE_SECONDS = 5;

    private final NodeConnections nodes;

    public NodeKills(NodeConnections nodes) {
        this.nodes = nodes;
    }

    /**
     * Stops a running job's process group on its node (TERM, KILL after the grace period).
     *
     * @return whether a signal was sent (false: the process was already gone)
     * @throws TransportException the node could not be reached; the caller records an orphan
     */
    public boolean terminate(String node, String runDir, int pid, Integer pgid) throws TransportException {
        // A workstation's process group is signalled; a batch job is cancelled there. A node no
        // longer configured is signalled too: nodes.run refuses it as unreachable, so the kill is owed.
        if (nodes.node(node).orElse(null) instanceof ConfiguredNode.BatchPartition b) {
            return cancelBatchJob(node, runDir, b.scheduler());
        }
        return signalGroup(node, runDir, pid, pgid);
    }

    private boolean signalGroup(String node, String runDir, int pid, Integer pgid) throws TransportException {
        ExecResult r = nodes.run(node, NodeScripts.terminate(runDir, pid, pgid, KILL_GRACE_SECONDS),
                Duration.ofSeconds(20), true);
        return r.stdout().contains("NVIDB_SIGNALLED=1");
    }

    /**
     * A batch node's job is the batch system's to stop (scancel): its processes run on machines
     * nvidb does not reach. A refusal is an unreachable node here, so that the cancel is owed.
     */
    private boolean cancelBatchJob(String node, String runDir, BatchScheduler batch) throws TransportException {
        ExecResult r = nodes.run(node, NodeScripts.batchCancel(runDir, batch.cancelFunction()), Duration.ofSeconds(30),
                true);
        if (!r.ok()) {
            String why = r.stderr().isBlank() ? r.stdout().strip() : r.stderr().strip();
            throw new TransportException(batch.system() + " did not cancel the job: " + Texts.truncate(why, 300));
        }
        return r.stdout().contains("NVIDB_SIGNALLED=1");
    }

    /** The last {@code lines} lines of one of the job's logs. */
    public String tail(String node, String runDir, String log, int lines) throws TransportException {
        return nodes.run(node, NodeScripts.tail(runDir, log, lines), Duration.ofSeconds(30), true).stdout();
    }
}
