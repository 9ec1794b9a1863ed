package nvidb.core.jobs;

import static nvidb.core.operation.ServiceContext.blankToNull;
import static nvidb.core.operation.ServiceContext.concat;
import static nvidb.core.operation.ServiceContext.csv;
import static nvidb.core.operation.ServiceContext.truncate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobEdits;
import nvidb.core.api.JobState;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;

/**
 * Changes to a job's own fields that are not state changes: note, result, priority, its place in
 * the dispatch order, and its dependencies. Each is one transaction and touches no node.
 */
public final class JobEditService implements JobEdits {
    private final ServiceContext ctx;
    private final Store store;

    public JobEditService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
    }

    @Override
    public Job setNote(long id, String text, boolean append) {
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            String value = text;
            if (append && job.notes() != null && !job.notes().isEmpty()) {
                value = job.notes() + " | " + text;
            }
            store.jobs.setNotes(id, blankToNull(value), Times.now());
            return store.jobs.find(id).orElseThrow();
        });
    }

    @Override
    public Job setResult(long id, String json) {
        JsonNode parsed;
        try {
            parsed = Json.readTree(json);
        } catch (JsonProcessingException e) {
            parsed = null;
        }
        if (parsed == null || parsed.isMissingNode() || trailing(json)) {
            throw NvidbException.usage("--set needs a JSON value, such as '{\"acc\": 0.9}', '42' or '\"a string\"' "
                    + "(a string keeps its quotes); got: " + truncate(json, 60));
        }
        if (!finite(parsed)) {
            // 1e400 reads as infinity, which JSON cannot hold: it would be stored as the string "Infinity".
            throw NvidbException.usage("--set: a number in " + truncate(json, 60) + " is too large for JSON"
                    + " (beyond ±1.8e308); write it as a string");
        }
        String canonical = Json.write(parsed);
        return store.db.write(() -> {
            store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            store.jobs.setResult(id, canonical, Times.now());
            return store.jobs.find(id).orElseThrow();
        });
    }

    /**
     * Whether {@code text} goes on after its first JSON value ({@code 1 2}, {@code {"a":1} x}):
     * readTree stops after the first, which would store part of what was typed without a word.
     */
    private static boolean trailing(String text) {
        try (JsonParser p = Json.parser(text)) {
            p.nextToken();
            p.skipChildren();
            return p.nextToken() != null;
        } catch (IOException e) {
            return true;
        }
    }

    private static boolean finite(JsonNode node) {
        if (node.isFloatingPointNumber()) {
            return Double.isFinite(node.doubleValue());
        }
        for (JsonNode child : node) {
            if (!finite(child)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Job setPriority(long id, String value) {
        String v = value.strip();
        boolean relative = v.startsWith("+") || v.startsWith("-");
        int n;
        try {
            // One sign at most: parseInt alone would take "+-1" (after cutting the plus) and non-ASCII digits.
            if (!v.matches("[+-]?[0-9]+")) {
                throw new NumberFormatException(v);
            }
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw NvidbException.usage("invalid priority '" + value + "' (use 5, +1, or -2)");
        }
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state().terminal()) {
                throw NvidbException.conflict("job " + id + " is " + job.state().label()
                        + "; its priority no longer matters");
            }
            int next;
            try {
                next = relative ? Math.addExact(job.priority(), n) : n;
            } catch (ArithmeticException overflow) {
                // Without the check the priority would wrap round from the highest to the lowest.
                throw NvidbException.usage("priority " + job.priority() + " " + v + " is out of range (priorities run from "
                        + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + ")");
            }
            if (next != job.priority()) {
                Instant now = Times.now();
                store.jobs.setPriority(id, next, now);
                store.events.append(now, EventKind.JOB_PRIORITY, id, null, "priority " + job.priority() + " -> " + next, null);
            }
            return store.jobs.find(id).orElseThrow();
        });
    }

    @Override
    public Moved movePriority(long id, int slots) {
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state() != JobState.PENDING || job.lane() != null) {
                throw NvidbException.conflict("job " + id + " is " + (job.lane() != null ? "in lane " + job.lane()
                        + "; reorder it with `nvidb queue lane " + job.lane() + " move`" : job.state().label())
                        + "; only pending jobs outside lanes move in the dispatch order");
            }
            List<Job> order = new ArrayList<>(store.jobs.inStates(List.of(JobState.PENDING)).stream()
                    .filter(j -> j.lane() == null).toList());
            order.sort(nvidb.core.scheduler.PlacementPlanner.ORDER);
            int from = indexOf(order, id);
            int to = Math.max(0, Math.min(order.size() - 1, from - slots));
            if (to == from) {
                return new Moved(id, false, job.priority(), from + 1);
            }
            Job moving = order.remove(from);
            order.add(to, moving);
            Instant now = Times.now();
            int[] priorities = order.stream().mapToInt(Job::priority).toArray();
            for (int i = 1; i < order.size(); i++) {
                Job prev = order.get(i - 1);
                Job cur = order.get(i);
                boolean strictlyAfter = priorities[i] < priorities[i - 1]
                        || (priorities[i] == priorities[i - 1] && cur.id() > prev.id());
                if (!strictlyAfter) {
                    priorities[i] = cur.id() > prev.id() ? priorities[i - 1] : priorities[i - 1] - 1;
                }
            }
            for (int i = 0; i < order.size(); i++) {
                Job j = order.get(i);
                if (priorities[i] != j.priority()) {
                    store.jobs.setPriority(j.id(), priorities[i], now);
                }
            }
            store.events.append(now, EventKind.JOB_PRIORITY, id, null,
                    "moved " + (slots > 0 ? "up" : "down") + " to slot " + (to + 1), null);
            return new Moved(id, true, priorities[to], to + 1);
        });
    }

    private static int indexOf(List<Job> jobs, long id) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Edited editDependencies(long id, List<Long> addAfter, List<Long> dropAfter, List<Long> addAny,
                                   List<Long> dropAny, TickMode after) {
        if (addAfter.isEmpty() && dropAfter.isEmpty() && addAny.isEmpty() && dropAny.isEmpty()) {
            throw NvidbException.usage("nothing to change (pass --add-after, --drop-after, --add-after-any or --drop-after-any)");
        }
        boolean changed = store.db.write(() -> {
            Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
            if (job.state().terminal()) {
                throw NvidbException.conflict("job " + id + " already finished as " + job.state().label()
                        + "; its dependencies no longer decide anything");
            }
            List<Long> on = applyEdit(job.dependsOn(), dropAfter, addAfter);
            List<Long> any = applyEdit(job.dependsAny(), dropAny, addAny);
            for (long dep : concat(addAfter, addAny)) {
                if (dep == id) {
                    throw NvidbException.usage("a job cannot depend on itself (job " + id + ")");
                }
            }
            ctx.requireJobsExist(concat(addAfter, addAny));
            for (long dep : concat(addAfter, addAny)) {
                if (reaches(dep, id)) {
                    throw NvidbException.conflict("job " + dep + " already waits on job " + id
                            + "; that dependency would deadlock both");
                }
            }
            if (on.equals(job.dependsOn()) && any.equals(job.dependsAny())) {
                return false;
            }
            Instant now = Times.now();
            ctx.lifecycle().repoint(id, on, any, now);
            store.events.append(now, EventKind.JOB_DEPENDENCIES, id, null, "after=" + csv(on) + " after-any=" + csv(any), null);
            return true;
        });
        TickSummary tick = changed ? ctx.tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled();
        return new Edited(ctx.job(id), changed, tick);
    }

    private static List<Long> applyEdit(List<Long> current, List<Long> drop, List<Long> add) {
        List<Long> out = new ArrayList<>(current);
        out.removeIf(drop::contains);
        for (long a : add) {
            if (!out.contains(a)) {
                out.add(a);
            }
        }
        return out;
    }

    /** Whether {@code from} reaches {@code target} through any chain of dependencies. */
    private boolean reaches(long from, long target) {
        Deque<Long> todo = new ArrayDeque<>(List.of(from));
        Set<Long> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            long cur = todo.pop();
            if (cur == target) {
                return true;
            }
            if (!seen.add(cur)) {
                continue;
            }
            Optional<Job> j = store.jobs.find(cur);
            if (j.isPresent()) {
                todo.addAll(j.get().dependsOn());
                todo.addAll(j.get().dependsAny());
            }
        }
        return false;
    }
}
