package nvidb.core.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.node.LaneRunner.Current;
import nvidb.core.node.LaneRunner.Finished;
import nvidb.core.node.LaneRunner.LaneAnswer;
import nvidb.core.node.LaneRunner.RunnerState;

/** Reads what the lane scripts print ({@code lane-sync.sh}, {@code lane-stop.sh}) and a runner's {@code state} file. */
final class LaneAnswers {
    private LaneAnswers() {
    }

    /** Splits a sync's output into one answer per lane, in the order the lanes were given. */
    static List<LaneAnswer> parseSync(String output, String marker, int lanes) {
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
    static LaneAnswer parseLane(String text, String marker) {
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
    static RunnerState parseState(String text) {
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
