package nvidb.core.node;

import java.util.Map;
import nvidb.spi.probe.GpuReport;

/**
 * Everything one probe round trip learned about a node.
 *
 * @param kernel    {@code uname -r}, for choosing the WSL probe
 * @param processes the node's process table by pid
 * @param gpuOutput the probe plugin's section, unparsed (the plugin parses it)
 * @param jobs      the state of each job directory asked about, by job id
 */
public record NodeReport(String kernel, String home, Map<Integer, ProcessRow> processes, String gpuOutput,
                         Map<Long, JobDirState> jobs) {

    /** A row of {@code ps}: pid, process group, user, command line. */
    public record ProcessRow(int pid, int pgid, String user, String command) {
    }

    /**
     * What a job's run directory says.
     *
     * @param alive      the pid runs this job's run.sh
     * @param exitCode   from {@code exit_code}, null while running
     * @param finishedAt epoch seconds from {@code exit_code}
     * @param startedAt  epoch seconds from {@code started}
     * @param status     the last line of the status file, or null
     * @param result     result.json's text when the job has ended, else null
     * @param outputTail the tail of stderr (else stdout) of a job that ended badly
     * @param timedOutAfter the limit (s) a lane runner stopped the job for, or null
     * @param oomLine    the line of the end of its stderr holding an out-of-memory signature, or null
     */
    public record JobDirState(long jobId, Integer pid, Integer pgid, boolean alive, Integer exitCode, Long finishedAt,
                              Long startedAt, boolean session, String status, String result, String outputTail,
                              Long timedOutAfter, String oomLine) {
        /** A directory with no out-of-memory line found (or none looked for). */
        public JobDirState(long jobId, Integer pid, Integer pgid, boolean alive, Integer exitCode, Long finishedAt,
                           Long startedAt, boolean session, String status, String result, String outputTail,
                           Long timedOutAfter) {
            this(jobId, pid, pgid, alive, exitCode, finishedAt, startedAt, session, status, result, outputTail,
                    timedOutAfter, null);
        }
    }

    /** A probe report parsed by the plugin, kept next to the node's own facts. */
    public record Parsed(NodeReport node, GpuReport gpus) {
    }
}
