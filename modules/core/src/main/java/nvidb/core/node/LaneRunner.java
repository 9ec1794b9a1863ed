package nvidb.core.node;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node side of a lane: a POSIX sh runner living in the lane's spool directory, and the
 * scripts the controller sends to keep it supplied. Only the lane's head is staged (a small
 * file in {@code queue/}); the runner claims a spec by renaming it into {@code claimed/}, the
 * controller withdraws one by deleting it, so a claim and a withdrawal can never both win.
 *
 * <p>Spool layout ({@code <lane_spool_root>/<slug>}): {@code runner.sh}, {@code runner.version},
 * {@code runner.pid}, {@code runner.log}, {@code lane.conf} (the controller's view of the lane:
 * GPUs, concurrency, headroom, job cap, other queue work per GPU), {@code queue/},
 * {@code claimed/}, {@code state} (what the runner runs and has staged, rewritten each pass),
 * {@code finished}, and the {@code stop} / {@code exit} request files.
 */
public final class LaneRunner {
    private final String script;
    private final String version;

    /** @param freeMemoryFragment the probe plugin's sh fragment printing "INDEX FREE_MIB" lines */
    public LaneRunner(String freeMemoryFragment) {
        String fragment = freeMemoryFragment == null ? "" : freeMemoryFragment.strip();
        this.script = new NodeShell().function("nvidb_free", fragment).withLib("lane-runner.sh");
        this.version = sha256(script).substring(0, 12);
    }

    /** The runner itself ({@code lane-runner.sh}), as written to the spool's {@code runner.sh}. */
    public String script() {
        return script;
    }

    /** The first 12 hex digits of the script's sha256: a runner of another version is replaced. */
    public String version() {
        return version;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The lane's directory name: unsafe characters to {@code _}, at most 48 of them, then the
     * first 8 hex digits of the name's sha1 so that two names never share a directory.
     */
    public static String slug(String lane) {
        String s = lane.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+|_+$", "");
        if (s.isEmpty()) {
            s = "lane";
        }
        if (s.length() > 48) {
            s = s.substring(0, 48);
        }
        try {
            byte[] h = MessageDigest.getInstance("SHA-1").digest(lane.getBytes(StandardCharsets.UTF_8));
            return s + "-" + HexFormat.of().formatHex(h).substring(0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A staged spec's file name: sequence then job id, both zero-padded so any collation sorts them. */
    static String specName(long seq, long jobId) {
        return String.format("%012d-%012d", seq, jobId);
    }

    /** One job handed to the runner, with its run.sh already rendered. */
    public record Staged(long jobId, long seq, String runDir, long vramMb, long maxRuntimeS, String runScript,
                         String command) {
    }

    /** Queue work on one lane GPU that is not this lane's: job count and MiB reserved but not yet used. */
    public record OtherWork(int gpu, int jobs, long unusedReservationMb) {
    }

    /**
     * One lane's sync. {@code wanted}: a runner should live (something is staged or running);
     * otherwise a live one is told to stop once idle.
     */
    public record Sync(String lane, List<Integer> gpuIds, int concurrency, long headroomMb, int maxJobsPerGpu,
                       List<OtherWork> others, List<Staged> staged, boolean wanted) {
        public Sync {
            gpuIds = List.copyOf(gpuIds);
            others = List.copyOf(others);
            staged = List.copyOf(staged);
        }
    }

    /** The runner's loop period and idle exit, from {@code lane_poll_interval} / {@code lane_idle_exit}. */
    public record Timing(double pollIntervalSeconds, int idleExitSeconds) {
        int naps() {
            return (int) Math.max(1, Math.round(pollIntervalSeconds * 4));
        }
    }

    /**
     * One round trip that syncs every given lane of a node ({@code lane-sync.sh}): writes
     * lane.conf and the staged specs (run.sh and command.sh into each run directory first),
     * withdraws every other unclaimed spec, then starts, replaces or stops the runner, and prints
     * its state. Each lane runs in its own subshell so that one lane's failure leaves the others alone.
     */
    public String syncScript(String spoolRoot, Timing timing, List<Sync> lanes, String marker) {
        List<String> args = new ArrayList<>();
        for (Sync s : lanes) {
            args.addAll(List.of(slug(s.lane()), s.lane(), s.wanted() ? "1" : "0", laneConf(s),
                    String.valueOf(s.staged().size())));
            for (Staged j : s.staged()) {
                args.addAll(List.of(specName(j.seq(), j.jobId()), j.runDir(), spec(j),
                        NodeShell.withNewline(j.runScript()), NodeShell.withNewline(j.command())));
            }
        }
        return new NodeShell()
                .set("m", marker)
                .set("nvidb_root", NodeScripts.root(spoolRoot))
                .set("nvidb_version", version)
                .set("nvidb_naps", timing.naps())
                .set("nvidb_idle_exit", Math.max(0, timing.idleExitSeconds()))
                .setShell("nvidb_runner", NodeShell.withNewline(script))
                .args(args)
                .withLib("lane-sync.sh");
    }

    /** lane.conf: the controller's view of the lane, which the runner rereads each pass. */
    private static String laneConf(Sync s) {
        StringBuilder sb = new StringBuilder();
        sb.append("gpus=").append(String.join(",", s.gpuIds().stream().map(String::valueOf).toList())).append('\n');
        sb.append("concurrency=").append(Math.max(1, s.concurrency())).append('\n');
        sb.append("headroom_mb=").append(s.headroomMb()).append('\n');
        sb.append("max_jobs_per_gpu=").append(s.maxJobsPerGpu()).append('\n');
        for (OtherWork o : s.others()) {
            sb.append("other=").append(o.gpu()).append(' ').append(o.jobs()).append(' ').append(o.unusedReservationMb())
                    .append('\n');
        }
        return sb.toString();
    }

    /** A staged job's spec file, as the runner reads it. */
    private static String spec(Staged j) {
        return "job_id=" + j.jobId() + "\nrun_dir=" + j.runDir() + "\nvram_mb=" + Math.max(0, j.vramMb())
                + "\nmax_runtime_s=" + Math.max(0, j.maxRuntimeS()) + "\n";
    }

    /**
     * Stops a lane's runner ({@code lane-stop.sh}): withdraws every unclaimed spec and leaves the
     * {@code stop} file (the runner exits once its jobs are done). {@code hard}: TERM it now as
     * well. With {@code restart} the runner is asked to exit at once instead (its jobs keep
     * running and the next runner adopts them). Never signals a job. Prints {@code stopped=1}
     * when a runner was told.
     */
    public static String stopScript(String spoolRoot, String lane, boolean hard, boolean restart, String marker) {
        return new NodeShell()
                .set("m", marker)
                .set("nvidb_root", NodeScripts.root(spoolRoot))
                .set("nvidb_slug", slug(lane))
                .set("nvidb_hard", hard ? 1 : 0)
                .set("nvidb_restart", restart ? 1 : 0)
                .withLib("lane-stop.sh");
    }

    /**
     * Withdraws one job from its lane's runner (it was cancelled while staged,
     * {@code lane-withdraw.sh}): deletes its spec if still unclaimed and prints {@code pid=} when
     * its run.sh already runs, for the caller to stop.
     */
    public static String withdrawScript(String spoolRoot, String lane, long jobId, String runDir) {
        return new NodeShell()
                .set("nvidb_root", NodeScripts.root(spoolRoot))
                .set("nvidb_slug", slug(lane))
                .set("nvidb_job", String.format("%012d", jobId))
                .set("nvidb_run_dir", runDir)
                .withLib("lane-withdraw.sh");
    }

    // ---------------------------------------------------------------- reading the answer

    /**
     * What one lane's part of a sync (or stop) printed.
     *
     * @param error  the spool could not be used (null when fine)
     * @param alive  a runner carrying the lane's marker was alive when the script ended
     * @param state  the runner's last published state, null when none or unreadable
     */
    public record LaneAnswer(String error, boolean alive, boolean started, boolean replaced, boolean stopped,
                             RunnerState state) {
    }

    /** A job the runner runs: its id, pid, start time (epoch s) and run directory. */
    public record Current(long jobId, int pid, long startedAt, String runDir) {
    }

    /** A job the runner saw end: exit code null when it vanished without one. */
    public record Finished(long jobId, Integer exitCode, long finishedAt, String runDir) {
    }

    /** The runner's {@code state} file. {@code waiting} says why the head has not started, or null. */
    public record RunnerState(String lane, String version, Integer pid, Long at, boolean stopping, String waiting,
                              List<Current> current, List<Long> queued, List<Finished> finished) {

        /** The state as stored and shown ({@code runner_state}): plain JSON-ready maps and lists. */
        public Map<String, Object> toMap(boolean alive) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lane", lane);
            m.put("version", version);
            m.put("pid", pid);
            m.put("alive", alive);
            m.put("at", at);
            m.put("stopping", stopping);
            m.put("waiting", waiting);
            List<Map<String, Object>> cur = new ArrayList<>();
            for (Current c : current) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("job_id", c.jobId());
                x.put("pid", c.pid());
                x.put("run_dir", c.runDir());
                x.put("started_at", c.startedAt());
                cur.add(x);
            }
            m.put("current", cur);
            m.put("queued", queued);
            List<Map<String, Object>> fin = new ArrayList<>();
            for (Finished f : finished) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("job_id", f.jobId());
                x.put("exit_code", f.exitCode());
                x.put("finished_at", f.finishedAt());
                x.put("run_dir", f.runDir());
                fin.add(x);
            }
            m.put("finished", fin);
            return m;
        }
    }

    /** Splits a sync's output into one answer per lane, in the order the lanes were given. */
    public static List<LaneAnswer> parseSync(String output, String marker, int lanes) {
        return LaneAnswers.parseSync(output, marker, lanes);
    }

    /** One lane's answer: key=value lines, then the state after the {@code <marker> state} line. */
    public static LaneAnswer parseLane(String text, String marker) {
        return LaneAnswers.parseLane(text, marker);
    }

    /** Reads a state file; null when it is empty or carries no runner pid (never "nothing runs"). */
    public static RunnerState parseState(String text) {
        return LaneAnswers.parseState(text);
    }
}
