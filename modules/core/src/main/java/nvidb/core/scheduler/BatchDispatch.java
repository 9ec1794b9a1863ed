package nvidb.core.scheduler;

import java.time.Duration;
import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.lifecycle.BatchLifecycle;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeScripts;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSubmission;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * Hands a pending job to a batch node: one round trip writes the job's run.sh and command.sh in
 * its run directory (on the cluster's shared filesystem) and submits run.sh to the batch system,
 * or adopts the submission this attempt already has. The job stays pending, placed there, until
 * the batch system runs it.
 */
final class BatchDispatch {
    private final QueueConfig config;
    private final NodeConnections nodes;
    private final BatchLifecycle batch;
    private final Launcher launcher;
    private final NodeKills kills;
    private final JobLifecycle lifecycle;

    BatchDispatch(QueueConfig config, NodeConnections nodes, BatchLifecycle batch, Launcher launcher, NodeKills kills,
                  JobLifecycle lifecycle) {
        this.config = config;
        this.nodes = nodes;
        this.batch = batch;
        this.launcher = launcher;
        this.kills = kills;
        this.lifecycle = lifecycle;
    }

    /** Submits the job to {@code partition}; true when the batch system took it. */
    boolean submit(Job job, ConfiguredNode.BatchPartition partition, TickSummary.Builder summary) {
        String node = partition.name();
        BatchScheduler scheduler = partition.scheduler();
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job, node, nodes.jobRoot(node), List.of(),
                job.attempt() + 1, scheduler.system());
        String script = NodeScripts.batchSubmit(spec,
                scheduler.submitFunction(new BatchSubmission(job.id(), job.gpus(), job.maxRuntimeS())));
        ExecResult r;
        try {
            r = nodes.run(node, script, Duration.ofSeconds(config.settings().launchTimeout()), true);
        } catch (TransportException e) {
            Interruption.check();
            launcher.failed(job, node + ": " + e.getMessage(), summary);
            return false;
        }
        String dir = value(r.stdout(), "NVIDB_DIR=");
        String id = value(r.stdout(), "NVIDB_BATCH_ID=");
        if (dir == null || id == null) {
            String error = value(r.stdout(), "NVIDB_ERROR=");
            String why = error != null ? error : !r.stderr().isBlank() ? r.stderr().strip() : "no batch job id came back";
            launcher.failed(job, node + ": " + scheduler.system() + " refused the job: " + why, summary);
            return false;
        }
        boolean adopted = r.stdout().contains("NVIDB_ADOPTED=1");
        if (JobLifecycle.ifStillLegal(() -> batch.submitted(job.id(), node, dir, id, scheduler.system(), adopted,
                Times.now())) != null) {
            return true;
        }
        // Cancelled (or purged) while its submission was on the wire: Slurm must not keep it.
        try {
            kills.terminate(node, dir, 0, null);
        } catch (TransportException e) {
            lifecycle.launches().owesKill(job.id(), node, dir, 0, null, "cancelled while it was submitted", Times.now());
        }
        return false;
    }

    private static String value(String stdout, String key) {
        for (String line : stdout.split("\n")) {
            String l = line.strip();
            if (l.startsWith(key) && l.length() > key.length()) {
                return l.substring(key.length());
            }
        }
        return null;
    }
}
