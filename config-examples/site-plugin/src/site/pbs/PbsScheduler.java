package site.pbs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.spi.batch.BatchJobState;
import nvidb.spi.batch.BatchLimits;
import nvidb.spi.batch.BatchPhase;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSubmission;

/**
 * The shell nvidb runs on the PBS login: {@code qsub} to submit, one {@code qstat} and one
 * {@code pbsnodes} a pass, {@code qdel} to cancel. A sketch to adapt to a site's PBS (its GPU
 * resource name, whether output is written in place): it is compiled and loaded by nvidb's tests,
 * never run against a real PBS there.
 */
final class PbsScheduler implements BatchScheduler {
    /** Every client call under a time limit: a server that does not answer must not hang a pass. */
    private static final String T = "nvidb_t=; if command -v timeout >/dev/null 2>&1; then nvidb_t='timeout 20'; fi\n";

    private final String queue;
    private final long gpuVramMb;
    private final int maxJobs;
    private final boolean burst;

    PbsScheduler(String queue, long gpuVramMb, int maxJobs, boolean burst) {
        this.queue = queue;
        this.gpuVramMb = gpuVramMb;
        this.maxJobs = maxJobs;
        this.burst = burst;
    }

    @Override
    public String system() {
        return "pbs";
    }

    @Override
    public BatchLimits limits() {
        return new BatchLimits(gpuVramMb, maxJobs, burst);
    }

    /**
     * {@code $1} is the job's run directory, holding the run.sh nvidb wrote. PBS runs a copy of
     * the script it is given, so batch.sh runs run.sh from the directory qsub ran in.
     */
    @Override
    public String submitFunction(BatchSubmission job) {
        StringBuilder sb = new StringBuilder(T);
        sb.append("printf '#!/bin/sh\\nexec sh \"$PBS_O_WORKDIR/run.sh\"\\n' > \"$1/batch.sh\" || return 1\n");
        sb.append("cd \"$1\" && $nvidb_t qsub -q ").append(quote(queue)).append(" -N nvidb-").append(job.jobId())
                .append(" -o \"$1/stdout.log\" -e \"$1/stderr.log\"");
        if (job.gpus() > 0) {
            sb.append(" -l select=1:ngpus=").append(job.gpus());
        }
        if (job.timeLimitS() != null && job.timeLimitS() > 0) {
            sb.append(" -l walltime=").append(job.timeLimitS());
        }
        return sb.append(" batch.sh\n").toString(); // qsub prints the job's id, alone
    }

    /** One line per job ({@code J|id|state}), the rc of each call, the GPUs of every node ({@code G|total|assigned}). */
    @Override
    public String pollFunction(List<String> ids) {
        StringBuilder sb = new StringBuilder(T);
        if (!ids.isEmpty()) {
            sb.append("nvidb_q=$($nvidb_t qstat -x -f");
            ids.forEach(id -> sb.append(' ').append(quote(id)));
            sb.append(" 2>&1); nvidb_rc=$?\n")
                    // A job PBS no longer knows is no failure of PBS: it is missing from the poll.
                    .append("case $nvidb_q in *'Unknown Job Id'*) nvidb_rc=0 ;; esac; echo \"qstat_rc=$nvidb_rc\"\n")
                    .append("printf '%s\\n' \"$nvidb_q\" | awk '/^Job Id:/ {id=$3} /job_state =/ {print \"J|\" id \"|\" $3}'\n");
        }
        sb.append("nvidb_n=$($nvidb_t pbsnodes -a 2>&1); echo \"pbsnodes_rc=$?\"\n")
                .append("printf '%s\\n' \"$nvidb_n\" | awk '/resources_available.ngpus =/ {t+=$3}"
                        + " /resources_assigned.ngpus =/ {a+=$3} END {print \"G|\" t+0 \"|\" a+0}'\n");
        return sb.toString();
    }

    /** A job qstat no longer lists is missing from the poll: nvidb then reads the job's own files. */
    @Override
    public BatchPoll parsePoll(String output) {
        Map<String, BatchJobState> jobs = new HashMap<>();
        int total = -1;
        int assigned = 0;
        for (String line : output.strip().split("\n")) {
            String[] f = line.strip().split("\\|");
            if (line.contains("_rc=") && !line.strip().endsWith("=0")) {
                throw new IllegalStateException("PBS did not answer: " + line.strip()); // the node goes down, saying so
            } else if (f[0].equals("J") && f.length == 3) {
                jobs.put(f[1], new BatchJobState(f[1], phase(f[2]), f[2], null));
            } else if (f[0].equals("G") && f.length == 3) {
                total = Integer.parseInt(f[1]);
                assigned = Integer.parseInt(f[2]);
            }
        }
        if (total < 0) {
            throw new IllegalStateException("PBS did not answer: no GPU count from pbsnodes");
        }
        return new BatchPoll(jobs, total, Math.min(assigned, total), Math.max(0, total - assigned));
    }

    @Override
    public String cancelFunction() {
        return T + "$nvidb_t qdel \"$1\"\n";
    }

    /** PBS's one-letter job states in the words nvidb acts on. */
    static BatchPhase phase(String state) {
        return switch (state) {
            case "Q", "H", "W", "T" -> BatchPhase.QUEUED;
            case "F", "X" -> BatchPhase.ENDED; // finished: the job's exit_code file says how
            default -> BatchPhase.RUNNING; // R, E (exiting), B, S, U
        };
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
