package nvidb.plugins.slurm;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.spi.batch.BatchJobState;
import nvidb.spi.batch.BatchLimits;
import nvidb.spi.batch.BatchPhase;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSubmission;

/**
 * What nvidb asks of Slurm, as sh for the login: {@code sbatch --parsable} to submit, one
 * {@code squeue} for every job of the node plus one {@code sinfo} for its GPUs per pass,
 * {@code scancel} to cancel. Every client call runs under {@code timeout}: a slurmctld that does
 * not answer makes Slurm's clients wait for minutes.
 */
final class SlurmScheduler implements BatchScheduler {
    /** {@code gpu:4}, {@code gpu:a100:4(S:0-1)}, {@code gpu:a100:2(IDX:0-1)}: the count is the last number before any "(". */
    private static final Pattern GRES_COUNT = Pattern.compile("^([^:(]+)(?::[^:(]+)?:(\\d+)");
    private static final Pattern ID = Pattern.compile("[0-9]+(?:_[0-9]+)?(?:\\+[0-9]+)?");

    private final SlurmSettings settings;

    SlurmScheduler(SlurmSettings settings) {
        this.settings = settings;
    }

    @Override
    public String system() {
        return "slurm";
    }

    @Override
    public BatchLimits limits() {
        return new BatchLimits(settings.gpuVramMb(), settings.maxJobs(), settings.burst());
    }

    /**
     * Slurm runs a copy of the batch script from its spool, so run.sh itself, which finds its
     * job directory from its own path, cannot be the script: batch.sh, in the job directory,
     * runs it from there. sbatch runs in that directory, which Slurm then gives the job as
     * {@code SLURM_SUBMIT_DIR}.
     */
    @Override
    public String submitFunction(BatchSubmission job) {
        StringBuilder sb = new StringBuilder(timeoutPrefix());
        sb.append("printf '#!/bin/sh\\n# nvidb: Slurm runs a copy of this from its spool; run.sh runs from the job directory.\\n"
                + "exec sh \"$SLURM_SUBMIT_DIR/run.sh\"\\n' > \"$1/batch.sh\" || return 1\n");
        sb.append("nvidb_out=$(cd \"$1\" && $nvidb_t sbatch --parsable");
        sb.append(' ').append(quote("--partition=" + settings.partition()));
        option(sb, "--account=", settings.account());
        option(sb, "--qos=", settings.qos());
        option(sb, "--constraint=", settings.constraint());
        sb.append(' ').append(quote("--job-name=nvidb-" + job.jobId()));
        if (job.gpus() > 0) {
            sb.append(' ').append(quote("--gres=" + settings.gres() + ":" + job.gpus()));
        }
        if (job.timeLimitS() != null && job.timeLimitS() > 0) {
            sb.append(" --time=").append((job.timeLimitS() + 59) / 60); // minutes; nvidb's own pass stops it on time
        }
        sb.append(" --output=\"$1/stdout.log\" --error=\"$1/stderr.log\" --open-mode=append");
        for (String a : settings.extraArgs()) {
            sb.append(' ').append(quote(a));
        }
        sb.append(" batch.sh) || return 1\n");
        sb.append("printf '%s\\n' \"${nvidb_out%%;*}\"\n"); // --parsable: "id" or "id;cluster"
        return sb.toString();
    }

    private static void option(StringBuilder sb, String flag, String value) {
        if (value != null && !value.isBlank()) {
            sb.append(' ').append(quote(flag + value));
        }
    }

    @Override
    public String pollFunction(List<String> ids) {
        StringBuilder sb = new StringBuilder(timeoutPrefix());
        List<String> valid = ids.stream().filter(i -> ID.matcher(i).matches()).toList();
        if (!valid.isEmpty()) {
            sb.append("nvidb_q=$($nvidb_t squeue -h --states=all --jobs=").append(String.join(",", valid))
                    .append(" -o 'J|%i|%T|%r' 2>&1)\n")
                    .append("nvidb_rc=$?\n")
                    // It says so, and fails, when it knows none of them any more: then none is known.
                    .append("case $nvidb_q in *'Invalid job id'*) nvidb_q=; nvidb_rc=0 ;; esac\n")
                    .append("echo \"squeue_rc=$nvidb_rc\"\n")
                    .append("printf '%s\\n' \"$nvidb_q\"\n");
        }
        sb.append("nvidb_n=$($nvidb_t sinfo -h -N -p ").append(quote(settings.partition()))
                .append(" -O 'NodeHost:|,Gres:|,GresUsed:|,StateLong:|' 2>&1)\n")
                .append("echo \"sinfo_rc=$?\"\n")
                .append("printf '%s\\n' \"$nvidb_n\" | sed 's/^/N|/'\n");
        return sb.toString();
    }

    @Override
    public BatchPoll parsePoll(String output) {
        Map<String, BatchJobState> jobs = new HashMap<>();
        int total = 0;
        int allocated = 0;
        int nodes = 0;
        StringBuilder errors = new StringBuilder();
        boolean sinfoSeen = false;
        for (String raw : output.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("squeue_rc=") || line.startsWith("sinfo_rc=")) {
                sinfoSeen |= line.startsWith("sinfo_rc=");
                if (!line.endsWith("=0")) {
                    errors.append(line.startsWith("squeue") ? "squeue" : "sinfo").append(" failed (exit ")
                            .append(line.substring(line.indexOf('=') + 1)).append(")");
                }
            } else if (line.startsWith("J|")) {
                String[] f = line.split("\\|", -1);
                if (f.length >= 4) {
                    String reason = f[3].isBlank() || f[3].equals("None") ? null : f[3];
                    jobs.put(f[1], new BatchJobState(f[1], phase(f[2]), f[2], reason));
                }
            } else if (line.startsWith("N|")) {
                String[] f = line.split("\\|", -1);
                if (f.length >= 5 && usable(f[4])) {
                    nodes++;
                    int has = gpus(f[2]);
                    total += has;
                    allocated += Math.min(has, gpus(f[3]));
                } else if (f.length < 5 && !line.equals("N|")) {
                    errors.append(errors.isEmpty() ? "" : "; ").append(line.substring(2));
                }
            } else if (!line.isEmpty()) {
                errors.append(errors.isEmpty() ? "" : "; ").append(line);
            }
        }
        if (!sinfoSeen || !errors.isEmpty()) {
            throw new IllegalStateException("Slurm did not answer: " + (errors.isEmpty() ? "no answer from sinfo"
                    : truncate(errors.toString())));
        }
        if (nodes == 0) {
            throw new IllegalStateException("partition " + settings.partition()
                    + " was not found, or has no usable node (sinfo -p " + settings.partition() + " lists none)");
        }
        return new BatchPoll(jobs, total, allocated, total - allocated);
    }

    @Override
    public String cancelFunction() {
        return timeoutPrefix() + "$nvidb_t scancel \"$1\"\n";
    }

    /** Slurm's job states in the words core acts on. */
    static BatchPhase phase(String state) {
        String s = state.toUpperCase(Locale.ROOT);
        return switch (s) {
            case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD" -> BatchPhase.QUEUED;
            case "TIMEOUT" -> BatchPhase.TIMED_OUT;
            case "CANCELLED" -> BatchPhase.CANCELLED;
            case "NODE_FAIL" -> BatchPhase.NODE_FAILED;
            case "PREEMPTED" -> BatchPhase.PREEMPTED;
            case "COMPLETED", "FAILED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "SPECIAL_EXIT" -> BatchPhase.ENDED;
            default -> BatchPhase.RUNNING; // RUNNING, CONFIGURING, COMPLETING, SUSPENDED, STAGE_OUT, SIGNALING…
        };
    }

    /** A node whose GPUs count: not down, drained, failing or powered off. */
    private static boolean usable(String state) {
        String s = state.toLowerCase(Locale.ROOT);
        return !(s.startsWith("down") || s.startsWith("drain") || s.startsWith("fail") || s.startsWith("maint")
                || s.contains("power") || s.startsWith("inval"));
    }

    /** The GPUs in a Gres cell ({@code gpu:4}, {@code gpu:a100:2(IDX:0-1)}, several comma separated). */
    private int gpus(String cell) {
        int n = 0;
        for (String part : cell.split(",(?![^(]*\\))")) {
            Matcher m = GRES_COUNT.matcher(part.strip());
            if (m.find() && m.group(1).equals(settings.gres())) {
                n += Integer.parseInt(m.group(2));
            }
        }
        return n;
    }

    /** Every function's start: the time limit of each client call, and the clients' configuration when set. */
    private String timeoutPrefix() {
        String conf = settings.slurmConf() == null ? ""
                : "SLURM_CONF=" + quote(settings.slurmConf()) + "\nexport SLURM_CONF\n";
        return conf + "nvidb_t=\nif command -v timeout >/dev/null 2>&1; then nvidb_t='timeout " + settings.clientTimeoutS()
                + "'; fi\n";
    }

    private static String truncate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    /** One sh word holding {@code s}, whatever it holds. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
