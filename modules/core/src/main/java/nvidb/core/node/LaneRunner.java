package nvidb.core.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import nvidb.core.util.ShellQuote;

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
    private static final String TEMPLATE = load();

    private final String script;
    private final String version;

    /** @param freeMemoryFragment the probe plugin's sh fragment printing "INDEX FREE_MIB" lines */
    public LaneRunner(String freeMemoryFragment) {
        String fragment = freeMemoryFragment == null ? "" : freeMemoryFragment.strip();
        this.script = TEMPLATE.replace("@ALIVE@", NodeScripts.ALIVE_FUNCTION.strip()).replace("@FREE@", fragment);
        this.version = sha256(script).substring(0, 12);
    }

    public String script() {
        return script;
    }

    /** The first 12 hex digits of the script's sha256: a runner of another version is replaced. */
    public String version() {
        return version;
    }

    private static String load() {
        try (InputStream in = LaneRunner.class.getResourceAsStream("lane-runner.sh")) {
            if (in == null) {
                throw new IllegalStateException("lane-runner.sh is missing from nvidb.core");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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

    /** The spool directory as a shell word (a relative root lives under the node's $HOME). */
    static String spoolWord(String spoolRoot, String lane) {
        return NodeScripts.rootWord(spoolRoot) + "/" + ShellQuote.quote(slug(lane));
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
     * One round trip that syncs every given lane of a node: writes lane.conf and the staged
     * specs (run.sh and command.sh into each run directory first), withdraws every other
     * unclaimed spec, then starts, replaces or stops the runner, and prints its state. Each lane
     * runs in its own subshell so that one lane's failure leaves the others alone.
     */
    public String syncScript(String spoolRoot, Timing timing, List<Sync> lanes, String marker) {
        StringBuilder sb = new StringBuilder();
        sb.append("umask 077\n");
        sb.append(NodeScripts.ALIVE_FUNCTION);
        sb.append(RUNNER_ALIVE);
        sb.append("m=").append(ShellQuote.quote(marker)).append('\n');
        for (int k = 0; k < lanes.size(); k++) {
            Sync s = lanes.get(k);
            sb.append("echo \"$m lane ").append(k).append("\"\n");
            sb.append("(\n");
            sb.append("d=").append(spoolWord(spoolRoot, s.lane())).append('\n');
            sb.append("mkdir -p \"$d/queue\" \"$d/claimed\" 2>/dev/null && cd \"$d\" || { echo \"error=cannot create $d\"; exit 0; }\n");
            sb.append("echo \"spool=$d\"\n");
            laneConf(sb, s);
            List<String> keep = new ArrayList<>();
            for (Staged j : s.staged()) {
                String name = specName(j.seq(), j.jobId());
                keep.add(name);
                stage(sb, name, j);
            }
            sb.append("for f in queue/*; do\n");
            sb.append("    [ -f \"$f\" ] || continue\n");
            sb.append("    case ${f#queue/} in\n");
            if (!keep.isEmpty()) {
                sb.append("        ").append(String.join("|", keep)).append(") ;;\n");
            }
            sb.append("        *) rm -f \"$f\" ;;\n");
            sb.append("    esac\n");
            sb.append("done\n");
            String slug = slug(s.lane());
            if (s.wanted()) {
                sb.append("rm -f stop\n");
                sb.append("if nvidb_runner_alive ").append(ShellQuote.quote(slug)).append(" && [ \"$(cat runner.version 2>/dev/null)\" != ")
                        .append(version).append(" ]; then\n");
                sb.append("    kill -TERM \"$(cat runner.pid)\" 2>/dev/null\n");
                sb.append("    i=0; while nvidb_runner_alive ").append(ShellQuote.quote(slug))
                        .append(" && [ $i -lt 40 ]; do sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done\n");
                sb.append("    echo replaced=1\n");
                sb.append("fi\n");
                sb.append("if ! nvidb_runner_alive ").append(ShellQuote.quote(slug)).append("; then\n");
                String delim = "NVIDB_RUNNER_" + UUID.randomUUID().toString().replace("-", "");
                sb.append("    cat > .runner.sh.tmp <<'").append(delim).append("'\n").append(script)
                        .append(script.endsWith("\n") ? "" : "\n").append(delim).append('\n');
                sb.append("    mv -f .runner.sh.tmp runner.sh && echo ").append(version).append(" > runner.version\n");
                sb.append("    rm -f state exit\n");
                String args = "\"$d\" " + ShellQuote.quote(s.lane()) + " " + ShellQuote.quote("NVIDB_LANE=" + slug) + " "
                        + version + " " + timing.naps() + " " + Math.max(0, timing.idleExitSeconds());
                sb.append("    if command -v setsid >/dev/null 2>&1; then\n");
                sb.append("        setsid sh \"$d/runner.sh\" ").append(args).append(" >> runner.log 2>&1 < /dev/null &\n");
                sb.append("    else\n");
                sb.append("        nohup sh \"$d/runner.sh\" ").append(args).append(" >> runner.log 2>&1 < /dev/null &\n");
                sb.append("    fi\n");
                sb.append("    i=0; while [ ! -s state ] && [ $i -lt 40 ]; do sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done\n");
                sb.append("    echo started=1\n");
                sb.append("fi\n");
            } else {
                sb.append("[ ! -f runner.pid ] || : > stop\n");
            }
            aliveAndState(sb, slug);
            sb.append(")\n");
        }
        sb.append("echo \"$m end\"\n");
        return sb.toString();
    }

    /** The runner is alive only if its pid file's process carries this lane's marker. */
    private static final String RUNNER_ALIVE = """
            nvidb_runner_alive() {
                p=$(cat runner.pid 2>/dev/null)
                [ -n "$p" ] && kill -0 "$p" 2>/dev/null || return 1
                ps -o args= -p "$p" 2>/dev/null | grep -qF -- "NVIDB_LANE=$1"
            }
            """;

    private static void aliveAndState(StringBuilder sb, String slug) {
        sb.append("if nvidb_runner_alive ").append(ShellQuote.quote(slug)).append("; then echo alive=1; else echo alive=0; fi\n");
        sb.append("for q in queue/*; do [ -f \"$q\" ] && echo \"spec=${q#queue/}\"; done\n");
        sb.append("echo \"$m state\"\n");
        sb.append("cat state 2>/dev/null\n");
    }

    private static void laneConf(StringBuilder sb, Sync s) {
        sb.append("{\n");
        sb.append("echo gpus=").append(String.join(",", s.gpuIds().stream().map(String::valueOf).toList())).append('\n');
        sb.append("echo concurrency=").append(Math.max(1, s.concurrency())).append('\n');
        sb.append("echo headroom_mb=").append(s.headroomMb()).append('\n');
        sb.append("echo max_jobs_per_gpu=").append(s.maxJobsPerGpu()).append('\n');
        for (OtherWork o : s.others()) {
            sb.append("echo 'other=").append(o.gpu()).append(' ').append(o.jobs()).append(' ')
                    .append(o.unusedReservationMb()).append("'\n");
        }
        sb.append("} > .lane.conf.tmp && mv -f .lane.conf.tmp lane.conf\n");
    }

    /**
     * Stages one job unless this attempt already started (a pid or exit code in its run
     * directory) or the runner holds it: a job must never be handed over twice.
     */
    private static void stage(StringBuilder sb, String name, Staged j) {
        String run = j.runScript();
        String command = j.command();
        String delim = "NVIDB_EOF_" + UUID.randomUUID().toString().replace("-", "");
        sb.append("rd=").append(ShellQuote.quote(j.runDir())).append('\n');
        // Claimed under any sequence number (the lane was reordered since): not handed over again.
        sb.append("held=0; for c in claimed/*-").append(String.format("%012d", j.jobId()))
                .append("; do [ -f \"$c\" ] && held=1; done\n");
        sb.append("if [ $held = 0 ] && [ ! -f \"$rd/pid\" ] && [ ! -f \"$rd/exit_code\" ]")
                .append(" && [ ! -f queue/").append(name).append(" ]; then\n");
        sb.append("    mkdir -p \"$rd\"\n");
        sb.append("    cat > \"$rd/.run.sh.tmp\" <<'").append(delim).append("'\n").append(run)
                .append(run.endsWith("\n") ? "" : "\n").append(delim).append('\n');
        sb.append("    cat > \"$rd/.command.sh.tmp\" <<'").append(delim).append("'\n").append(command)
                .append(command.endsWith("\n") ? "" : "\n").append(delim).append('\n');
        sb.append("    mv -f \"$rd/.run.sh.tmp\" \"$rd/run.sh\" && mv -f \"$rd/.command.sh.tmp\" \"$rd/command.sh\"\n");
        sb.append("    {\n");
        sb.append("    echo job_id=").append(j.jobId()).append('\n');
        sb.append("    printf 'run_dir=%s\\n' \"$rd\"\n");
        sb.append("    echo vram_mb=").append(Math.max(0, j.vramMb())).append('\n');
        sb.append("    echo max_runtime_s=").append(Math.max(0, j.maxRuntimeS())).append('\n');
        sb.append("    } > queue/.").append(name).append(".tmp && mv -f queue/.").append(name).append(".tmp queue/")
                .append(name).append('\n');
        sb.append("fi\n");
    }

    /**
     * Stops a lane's runner: withdraws every unclaimed spec and leaves the {@code stop} file
     * (the runner exits once its jobs are done). {@code hard}: TERM it now as well. With
     * {@code restart} the runner is asked to exit at once instead (its jobs keep running and the
     * next runner adopts them). Never signals a job. Prints {@code stopped=1} when a runner was told.
     */
    public static String stopScript(String spoolRoot, String lane, boolean hard, boolean restart, String marker) {
        String slug = slug(lane);
        StringBuilder sb = new StringBuilder();
        sb.append(RUNNER_ALIVE);
        sb.append("m=").append(ShellQuote.quote(marker)).append('\n');
        sb.append("d=").append(spoolWord(spoolRoot, lane)).append('\n');
        sb.append("[ -d \"$d\" ] || { echo stopped=0; echo \"$m state\"; exit 0; }\n");
        sb.append("cd \"$d\" || exit 1\n");
        sb.append("rm -f queue/* 2>/dev/null\n");
        sb.append(restart ? ": > exit\n" : ": > stop\n");
        sb.append("if nvidb_runner_alive ").append(ShellQuote.quote(slug)).append("; then\n");
        sb.append("    echo stopped=1\n");
        if (hard) {
            sb.append("    kill -TERM \"$(cat runner.pid)\" 2>/dev/null\n");
        }
        if (hard || restart) {
            sb.append("    i=0; while nvidb_runner_alive ").append(ShellQuote.quote(slug))
                    .append(" && [ $i -lt 60 ]; do sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done\n");
        }
        sb.append("else\n");
        sb.append("    echo stopped=0\n");
        sb.append("fi\n");
        if (restart) {
            sb.append("rm -f exit\n");
        }
        aliveAndState(sb, slug);
        return sb.toString();
    }

    /**
     * Withdraws one job from its lane's runner (it was cancelled while staged): deletes its spec
     * if still unclaimed and prints {@code pid=} when its run.sh already runs, for the caller to stop.
     */
    public static String withdrawScript(String spoolRoot, String lane, long jobId, String runDir) {
        StringBuilder sb = new StringBuilder(NodeScripts.ALIVE_FUNCTION);
        sb.append("d=").append(spoolWord(spoolRoot, lane)).append('\n');
        sb.append("rd=").append(ShellQuote.quote(runDir)).append('\n');
        sb.append("rm -f \"$d\"/queue/*-").append(String.format("%012d", jobId)).append(" 2>/dev/null\n");
        sb.append("p=$(cat \"$rd/pid\" 2>/dev/null)\n");
        sb.append("if nvidb_alive \"$p\" \"$rd\"; then echo \"pid=$p\"; fi\n");
        return sb.toString();
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
        List<LaneAnswer> out = new ArrayList<>();
        Map<Integer, String> parts = new LinkedHashMap<>();
        String prefix = marker + " lane ";
        int currentLane = -1;
        StringBuilder sb = null;
        boolean ended = false;
        for (String line : output.split("\n", -1)) {
            if (line.startsWith(prefix)) {
                if (sb != null) {
                    parts.put(currentLane, sb.toString());
                }
                currentLane = Integer.parseInt(line.substring(prefix.length()).strip());
                sb = new StringBuilder();
            } else if (line.equals(marker + " end")) {
                ended = true;
                break;
            } else if (sb != null) {
                sb.append(line).append('\n');
            }
        }
        if (sb != null) {
            parts.put(currentLane, sb.toString());
        }
        if (!ended) {
            throw new IllegalStateException("the node's answer was cut short (no end marker)");
        }
        for (int k = 0; k < lanes; k++) {
            String part = parts.get(k);
            out.add(part == null ? new LaneAnswer("no answer for this lane", false, false, false, false, null)
                    : parseLane(part, marker));
        }
        return out;
    }

    /** One lane's answer: key=value lines, then the state after the {@code <marker> state} line. */
    public static LaneAnswer parseLane(String text, String marker) {
        String error = null;
        boolean alive = false;
        boolean started = false;
        boolean replaced = false;
        boolean stopped = false;
        List<Long> specs = new ArrayList<>();
        StringBuilder state = null;
        for (String line : text.split("\n")) {
            if (state != null) {
                state.append(line).append('\n');
                continue;
            }
            if (line.equals(marker + " state")) {
                state = new StringBuilder();
            } else if (line.startsWith("error=")) {
                error = line.substring(6);
            } else if (line.equals("alive=1")) {
                alive = true;
            } else if (line.equals("started=1")) {
                started = true;
            } else if (line.equals("replaced=1")) {
                replaced = true;
            } else if (line.equals("stopped=1")) {
                stopped = true;
            } else if (line.startsWith("spec=")) {
                Long job = specJob(line.substring(5));
                if (job != null) {
                    specs.add(job);
                }
            }
        }
        RunnerState parsed = state == null ? null : parseState(state.toString());
        if (parsed != null) {
            // What is staged is what the spool holds now, not what the runner saw at its last pass.
            parsed = new RunnerState(parsed.lane(), parsed.version(), parsed.pid(), parsed.at(), parsed.stopping(),
                    parsed.waiting(), parsed.current(), specs, parsed.finished());
        }
        return new LaneAnswer(error, alive, started, replaced, stopped, parsed);
    }

    /** The job id of a spec file name ({@code <seq>-<job>}), or null. */
    private static Long specJob(String name) {
        int dash = name.lastIndexOf('-');
        return dash < 0 ? null : NodeProbeScript.longOrNull(name.substring(dash + 1));
    }

    /** Reads a state file; null when it is empty or carries no runner pid (never "nothing runs"). */
    public static RunnerState parseState(String text) {
        String lane = null;
        String version = null;
        Integer pid = null;
        Long at = null;
        boolean stopping = false;
        String waiting = null;
        List<Current> current = new ArrayList<>();
        List<Long> queued = new ArrayList<>();
        List<Finished> finished = new ArrayList<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq);
            String value = line.substring(eq + 1);
            switch (key) {
                case "lane" -> lane = value;
                case "version" -> version = value;
                case "pid" -> pid = NodeProbeScript.intOrNull(value);
                case "at" -> at = NodeProbeScript.longOrNull(value);
                case "stopping" -> stopping = "1".equals(value.strip());
                case "waiting" -> waiting = value;
                case "current" -> {
                    String[] f = value.split(" ", 4);
                    Long job = f.length == 4 ? NodeProbeScript.longOrNull(f[0]) : null;
                    Integer p = f.length == 4 ? NodeProbeScript.intOrNull(f[1]) : null;
                    Long st = f.length == 4 ? NodeProbeScript.longOrNull(f[2]) : null;
                    if (job != null && p != null) {
                        current.add(new Current(job, p, st == null ? 0 : st, f[3]));
                    }
                }
                case "queued" -> {
                    Long job = specJob(value);
                    if (job != null) {
                        queued.add(job);
                    }
                }
                case "finished" -> {
                    String[] f = value.split(" ", 4);
                    Long job = f.length == 4 ? NodeProbeScript.longOrNull(f[0]) : null;
                    Long when = f.length == 4 ? NodeProbeScript.longOrNull(f[2]) : null;
                    if (job != null) {
                        finished.add(new Finished(job, NodeProbeScript.intOrNull(f[1]), when == null ? 0 : when, f[3]));
                    }
                }
                default -> {
                    // a key a newer runner writes: ignored
                }
            }
        }
        if (pid == null) {
            return null;
        }
        return new RunnerState(lane, version, pid, at, stopping, waiting, current, queued, finished);
    }
}
