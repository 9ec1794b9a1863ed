package nvidb.tui.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.Job;

/**
 * The job table with each folded sweep as one line: the sweep's first run in the table's order
 * stands for all of them (selecting it selects the sweep, Enter unfolds it), its line saying how
 * many runs are in each state. A run knows its sweep from {@code $NVIDB_SWEEP_ID}, which every run
 * carries, so the table needs no query of its own.
 *
 * @param rows   the table's rows, a folded sweep's other runs left out
 * @param groups by the id of the run that stands for it, each folded sweep
 */
public record SweepGroups(List<Job> rows, Map<Long, Group> groups) {
    /** A folded sweep: its id, the runs' name stem, how many of its runs the table holds and their states. */
    public record Group(long sweepId, String name, int runs, Map<String, Integer> states) {
        /** {@code sweep 3 lr: 12 runs  running=2 pending=10}. */
        public String line() {
            StringBuilder b = new StringBuilder("sweep " + sweepId + " " + name + ": " + runs + " run" + (runs == 1 ? "" : "s"));
            for (String s : List.of("running", "pending", "held", "completed", "failed", "timeout", "lost", "cancelled")) {
                Integer n = states.get(s);
                if (n != null) {
                    b.append("  ").append(s).append('=').append(n);
                }
            }
            return b.append("  (Enter unfolds)").toString();
        }
    }

    /** The sweep {@code job} is a run of, or null. */
    public static Long sweepOf(Job job) {
        String id = job.env().get("NVIDB_SWEEP_ID");
        if (id == null) {
            return null;
        }
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            return null; // set by hand with --env: not a sweep of the queue's
        }
    }

    static SweepGroups of(List<Job> rows, Set<Long> unfolded) {
        Map<Long, Job> first = new HashMap<>();
        Map<Long, Map<String, Integer>> states = new HashMap<>();
        Map<Long, Integer> counts = new HashMap<>();
        List<Job> out = new ArrayList<>();
        for (Job j : rows) {
            Long sweep = sweepOf(j);
            if (sweep == null || unfolded.contains(sweep)) {
                out.add(j);
                continue;
            }
            states.computeIfAbsent(sweep, k -> new LinkedHashMap<>()).merge(j.displayState(), 1, Integer::sum);
            counts.merge(sweep, 1, Integer::sum);
            if (first.putIfAbsent(sweep, j) == null) {
                out.add(j);
            }
        }
        Map<Long, Group> groups = new HashMap<>();
        first.forEach((sweep, j) -> groups.put(j.id(), new Group(sweep, stem(j.name()), counts.get(sweep),
                states.get(sweep))));
        return new SweepGroups(out, groups);
    }

    /** {@code lr-3} is a run of {@code lr}. */
    private static String stem(String name) {
        int dash = name.lastIndexOf('-');
        return dash > 0 ? name.substring(0, dash) : name;
    }
}
