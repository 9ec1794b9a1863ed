package nvidb.core.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;

/**
 * The POSIX shell scripts nvidb sends to a node to start, stop and read a job. Nothing is
 * installed there: every round trip carries its own script, fed to {@code sh -s}. The scripts
 * are resources next to this class ({@code run.sh}, {@code launch.sh}, {@code terminate.sh},
 * {@code tail.sh}); {@link NodeShell} puts the values ahead of them, quoted.
 */
public final class NodeScripts {
    private NodeScripts() {
    }

    /**
     * A configured root as the scripts take it: without its trailing slash and a leading
     * {@code ~/}. A root that is not absolute lives under the node's {@code $HOME}.
     */
    public static String root(String jobRoot) {
        String root = jobRoot.endsWith("/") && jobRoot.length() > 1 ? jobRoot.substring(0, jobRoot.length() - 1) : jobRoot;
        return root.startsWith("~/") ? root.substring(2) : root;
    }

    /** The run directory's last part: {@code 12} for the first attempt, {@code 12-attempt-3} after. */
    public static String runDirName(long jobId, int attempt) {
        return attempt <= 1 ? String.valueOf(jobId) : jobId + "-attempt-" + attempt;
    }

    /**
     * A run directory as an absolute path, for a node whose {@code $HOME} is {@code home}: what
     * the controller records before it hands a job to a lane runner, so that a job that starts
     * and ends between two passes is still found.
     */
    public static String runDir(String home, String jobRoot, long jobId, int attempt) {
        String root = root(jobRoot);
        if (!root.startsWith("/")) {
            root = (home.endsWith("/") ? home.substring(0, home.length() - 1) : home) + "/" + root;
        }
        return root + "/" + runDirName(jobId, attempt);
    }

    /**
     * What a job needs to start: where, on which GPUs, as which attempt.
     *
     * @param batch the batch system that runs it ({@code slurm}), which then chooses its GPUs;
     *              null on an ordinary node
     */
    public record LaunchSpec(Job job, String nodeName, String jobRoot, List<Integer> gpuIds, int attempt,
                             String batch) {
        public LaunchSpec(Job job, String nodeName, String jobRoot, List<Integer> gpuIds, int attempt) {
            this(job, nodeName, jobRoot, gpuIds, attempt, null);
        }
    }

    /**
     * The wrapper that runs a job: records its pid, process group and start time, exports the
     * job's environment, runs the command verbatim in the background and waits for it, and on
     * any exit (TERM → 143, INT → 130) writes {@code exit_code} as "rc epoch" atomically.
     */
    public static String runScript(LaunchSpec spec) {
        Job job = spec.job();
        List<String> env = new ArrayList<>();
        for (Map.Entry<String, String> e : job.env().entrySet()) {
            if (NodeShell.isName(e.getKey())) { // another name cannot be exported: left out
                env.add(e.getKey());
                env.add(e.getValue() == null ? "" : e.getValue());
            }
        }
        return new NodeShell().comment("nvidb queue job " + job.id())
                .set("nvidb_job_id", job.id())
                .set("nvidb_job_name", job.name())
                .set("nvidb_node", spec.nodeName())
                .set("nvidb_gpus", String.join(",", spec.gpuIds().stream().map(String::valueOf).toList()))
                .set("nvidb_batch", spec.batch())
                .set("nvidb_workdir", job.workdir())
                .args(env)
                .alone("run.sh");
    }

    /**
     * One round trip that starts a job detached, or adopts it when its wrapper already runs (a
     * retried launch must not start it twice). Prints {@code NVIDB_DIR=}, {@code NVIDB_PID=},
     * {@code NVIDB_PGID=}, {@code NVIDB_SETSID=} and {@code NVIDB_ADOPTED=1} when adopted.
     */
    public static String launch(LaunchSpec spec) {
        return new NodeShell()
                .set("nvidb_root", root(spec.jobRoot()))
                .set("nvidb_run_name", runDirName(spec.job().id(), spec.attempt()))
                .setShell("nvidb_run_script", NodeShell.withNewline(runScript(spec)))
                .setShell("nvidb_command", NodeShell.withNewline(spec.job().command()))
                .withLib("launch.sh");
    }

    /**
     * One round trip that hands a job to the node's batch system, or adopts the submission this
     * attempt already has. {@code submitFunction} is the batch plugin's. Prints {@code NVIDB_DIR=},
     * {@code NVIDB_BATCH_ID=}, and {@code NVIDB_ADOPTED=1} when adopted, or {@code NVIDB_ERROR=}.
     */
    public static String batchSubmit(LaunchSpec spec, String submitFunction) {
        return new NodeShell()
                .set("nvidb_root", root(spec.jobRoot()))
                .set("nvidb_run_name", runDirName(spec.job().id(), spec.attempt()))
                .setShell("nvidb_run_script", NodeShell.withNewline(runScript(spec)))
                .setShell("nvidb_command", NodeShell.withNewline(spec.job().command()))
                .function("nvidb_batch_submit", submitFunction)
                .withLib("batch-submit.sh");
    }

    /**
     * Cancels the batch job a run directory recorded; {@code cancelFunction} is the batch
     * plugin's. Prints {@code NVIDB_SIGNALLED=1|0}; exits non-zero when the batch system refused.
     */
    public static String batchCancel(String runDir, String cancelFunction) {
        return new NodeShell().set("nvidb_run_dir", runDir).function("nvidb_batch_cancel", cancelFunction)
                .withLib("batch-cancel.sh");
    }

    /**
     * Stops a job's process group: TERM now, KILL after {@code graceSeconds} to whatever of the
     * group is left (a child that ignores TERM). Only when the pid still runs this job's run.sh.
     * Prints {@code NVIDB_SIGNALLED=1|0}.
     */
    public static String terminate(String runDir, int pid, Integer pgid, int graceSeconds) {
        return new NodeShell()
                .set("nvidb_run_dir", runDir)
                .set("nvidb_pid", pid)
                .set("nvidb_pgid", pgid == null ? "" : String.valueOf(pgid))
                .set("nvidb_grace", graceSeconds)
                .withLib("terminate.sh");
    }

    /** The last {@code lines} lines of a job's stdout or stderr; a missing file reads as empty. */
    public static String tail(String runDir, String file, int lines) {
        return new NodeShell().set("nvidb_file", runDir + "/" + file).set("nvidb_lines", lines).withLib("tail.sh");
    }
}
