package nvidb.core.lanes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneOrdering;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;
import nvidb.spi.transport.TransportException;

/**
 * Every way a person reorders lanes: moving, swapping and skipping queued jobs, putting a job in
 * or out of a lane, pausing or resuming a lane, and its concurrency. Each change is one
 * transaction and touches no node, so it works while the node is unreachable; the lane named is
 * the lane acted on: a job that is not queued in it is refused rather than moved elsewhere.
 */
public final class LaneOrderService implements LaneOrdering {
    private final ServiceContext ctx;
    private final Store store;
    private final LaneRunnerService runners;

    public LaneOrderService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.runners = new LaneRunnerService(ctx);
    }

    /**
     * Before a staged job leaves its lane (assigned elsewhere or taken out), its runner gives it
     * back; a job the runner already started (or ran to the end) stays where it is.
     */
    private void takeBack(long id, String verb) {
        Job job = store.db.read(() -> store.jobs.find(id)).orElse(null);
        if (job == null || job.state() != JobState.PENDING || job.runDir() == null || job.lane() == null) {
            return;
        }
        LaneRunnerService.Withdrawn w;
        try {
            w = runners.withdraw(job);
        } catch (TransportException e) {
            throw NvidbException.conflict("job " + id + " is staged with the runner of lane '" + job.lane()
                    + "', whose node cannot be reached to take it back (" + e.getMessage()
                    + "); try again when the node answers, or cancel the job");
        }
        if (w != null && w.startedPid() != null) {
            throw NvidbException.conflict("job " + id + " has just been started by the runner of lane '" + job.lane()
                    + "' (pid " + w.startedPid() + "); a running job cannot be " + verb);
        }
        if (w != null && w.exitCode() != null) {
            throw NvidbException.conflict("job " + id + " has already been run by the runner of lane '" + job.lane()
                    + "' (exit code " + w.exitCode() + "); a finished job cannot be " + verb);
        }
    }

    /**
     * After the lane's order changed: when a runner holds a job of the lane, a pass right away
     * withdraws what is no longer next and stages what is, so the runner never starts a job the
     * new order put further back. The order itself was already written.
     */
    private TickSummary resync(String lane, TickMode after) {
        if (after == TickMode.NONE) {
            return TickSummary.disabled();
        }
        boolean staged = store.db.read(() -> store.jobs.staged().stream().anyMatch(j -> lane.equals(j.lane())));
        return staged ? ctx.tick(TickMode.FORCE) : null;
    }

    @Override
    public LaneRecord concurrency(String typed, int n) {
        if (n < 1) {
            throw NvidbException.usage("concurrency must be at least 1 (got " + n + ")");
        }
        return store.db.write(() -> {
            String name = Lanes.of(ctx).name(typed);
            store.lanes.setConcurrency(name, n, Times.now());
            return store.lanes.find(name).orElseThrow();
        });
    }

    @Override
    public Moved move(String laneTyped, long id, String to, Long before, Long after, TickMode tick) {
        int given = (to != null ? 1 : 0) + (before != null ? 1 : 0) + (after != null ? 1 : 0);
        if (given != 1) {
            throw NvidbException.usage("pass exactly one of --to, --before or --after");
        }
        Long anchor = before != null ? before : after;
        if (anchor != null && anchor == id) {
            throw NvidbException.usage("a job cannot be moved relative to itself (job " + id + ")");
        }
        Moved m = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(Lanes.of(ctx).name(laneTyped)).orElseThrow();
            queuedJob(id, lane, "moved");
            if (anchor != null) {
                queuedJob(anchor, lane, "used as an anchor");
            }
            Lanes lanes = Lanes.of(ctx);
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            int from = indexOf(order, id);
            Job job = order.remove(from);
            int slot;
            if (anchor == null) {
                slot = Lanes.slot(to, order.size() + 1);
            } else {
                int at = indexOf(order, anchor);
                slot = (before != null ? at : at + 1) + 1;
            }
            order.add(slot - 1, job);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, EventKind.LANE_REORDERED, id, lane.node(), lane.name() + ": moved to slot " + slot,
                    Map.of("lane", lane.name(), "position", slot));
            return new Moved(id, lane.name(), slot, null);
        });
        return new Moved(m.id(), m.lane(), m.position(), resync(m.lane(), tick));
    }

    @Override
    public Swapped swap(String laneTyped, long a, long b, TickMode tick) {
        if (a == b) {
            throw NvidbException.usage("swap needs two different jobs (got " + a + " twice)");
        }
        Swapped done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(Lanes.of(ctx).name(laneTyped)).orElseThrow();
            queuedJob(a, lane, "swapped");
            queuedJob(b, lane, "swapped");
            Lanes lanes = Lanes.of(ctx);
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            int i = indexOf(order, a);
            int j = indexOf(order, b);
            Job x = order.get(i);
            order.set(i, order.get(j));
            order.set(j, x);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, EventKind.LANE_REORDERED, a, lane.node(), lane.name() + ": swapped with job " + b,
                    Map.of("lane", lane.name(), "swapped_with", b));
            return new Swapped(lane.name(), ids(order), null);
        });
        return new Swapped(done.lane(), done.order(), resync(done.lane(), tick));
    }

    @Override
    public Skipped skip(String laneTyped, TickMode after) {
        Skipped done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(Lanes.of(ctx).name(laneTyped)).orElseThrow();
            Lanes lanes = Lanes.of(ctx);
            List<Job> order = new ArrayList<>(lanes.queued(lane.name()));
            if (order.size() < 2) {
                return new Skipped(lane.name(), null, ids(order), null);
            }
            Job head = order.removeFirst();
            order.add(head);
            Instant now = Times.now();
            lanes.renumber(lane.name(), order, now);
            store.events.append(now, EventKind.LANE_REORDERED, head.id(), lane.node(), lane.name() + ": skipped to the back",
                    Map.of("lane", lane.name()));
            return new Skipped(lane.name(), head.id(), ids(order), null);
        });
        // A pass after a skip that moved nothing as well, as the reference makes one: its summary is the
        // one every command with a pass prints (reference-cli.md §2.12).
        return new Skipped(done.lane(), done.skipped(), done.order(), ctx.tick(ServiceContext.forced(after)));
    }

    @Override
    public Assigned assign(String laneTyped, long id, String at, TickMode after) {
        String target = store.db.write(() -> Lanes.of(ctx).name(laneTyped));
        if (!target.equals(store.db.read(() -> store.jobs.find(id)).map(Job::lane).orElse(target))) {
            takeBack(id, "moved to another lane");
        }
        Assigned done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(Lanes.of(ctx).name(laneTyped)).orElseThrow();
            Job job = pendingJob(id, "assigned");
            int width = lane.gpuIds().size();
            if (job.gpus() > width) {
                throw NvidbException.conflict("job " + id + " needs " + job.gpus() + " GPUs; lane '" + lane.name()
                        + "' has " + width);
            }
            Instant now = Times.now();
            Lanes lanes = Lanes.of(ctx);
            String previous = job.lane();
            if (!lane.name().equals(previous)) {
                store.jobs.setLane(id, lane.name(), store.lanes.nextSeq(lane.name()), lane.node(), now);
            } else if (!lane.node().equals(job.nodeConstraint())) {
                store.jobs.setNodeConstraint(id, lane.node(), now);
            }
            int position = at != null || !lane.name().equals(previous)
                    ? lanes.move(id, lane.name(), at == null ? "tail" : at, now)
                    : indexOf(lanes.queued(lane.name()), id) + 1;
            store.events.append(now, EventKind.LANE_ASSIGNED, id, lane.node(),
                    (previous == null ? "-" : previous) + " -> " + lane.name(),
                    data("lane", lane.name(), "previous", previous, "position", position));
            return new Assigned(id, lane.name(), previous, position, null);
        });
        return new Assigned(done.id(), done.lane(), done.previous(), done.position(), ctx.tick(ServiceContext.forced(after)));
    }

    @Override
    public Assigned unassign(String laneTyped, long id, TickMode after) {
        String target = store.db.write(() -> Lanes.of(ctx).name(laneTyped));
        if (target.equals(store.db.read(() -> store.jobs.find(id)).map(Job::lane).orElse(null))) {
            takeBack(id, "taken out of its lane");
        }
        Assigned done = store.db.write(() -> {
            LaneRecord lane = store.lanes.find(Lanes.of(ctx).name(laneTyped)).orElseThrow();
            Job job = pendingJob(id, "taken out of a lane");
            if (!lane.name().equals(job.lane())) {
                throw NvidbException.conflict("job " + id + " is not queued in lane '" + lane.name() + "'"
                        + (job.lane() == null ? "; it is in no lane" : "; it is in lane '" + job.lane() + "'"));
            }
            Instant now = Times.now();
            store.jobs.setLane(id, null, null, null, now);
            store.events.append(now, EventKind.LANE_ASSIGNED, id, lane.node(), "removed from lane " + lane.name(),
                    data("lane", null, "previous", lane.name()));
            return new Assigned(id, null, lane.name(), null, null);
        });
        return new Assigned(done.id(), null, done.previous(), null, ctx.tick(ServiceContext.forced(after)));
    }

    @Override
    public Switched pause(String laneTyped, TickMode after) {
        return setPaused(laneTyped, true, after);
    }

    @Override
    public Switched resume(String laneTyped, TickMode after) {
        return setPaused(laneTyped, false, after);
    }

    private Switched setPaused(String laneTyped, boolean paused, TickMode after) {
        Switched done = store.db.write(() -> {
            String name = Lanes.of(ctx).name(laneTyped);
            Instant now = Times.now();
            boolean changed = store.lanes.setPaused(name, paused, now);
            LaneRecord lane = store.lanes.find(name).orElseThrow();
            if (changed) {
                store.events.append(now, paused ? EventKind.LANE_PAUSED : EventKind.LANE_RESUMED, null, lane.node(), lane.name(), null);
            }
            return new Switched(lane, changed, null);
        });
        TickSummary tick = paused ? resync(done.lane().name(), after) : ctx.tick(ServiceContext.forced(after));
        return new Switched(done.lane(), done.changed(), tick);
    }

    private Job pendingJob(long id, String verb) {
        Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
        if (job.state() == JobState.RUNNING) {
            throw NvidbException.conflict("job " + id + " is running; a running job cannot be " + verb
                    + " (cancel it if it must stop)");
        }
        if (job.state() != JobState.PENDING) {
            throw NvidbException.conflict("job " + id + " is " + job.state().label() + "; only queued jobs can be " + verb);
        }
        return job;
    }

    /** The job, which must be queued (pending) in {@code lane}. */
    private Job queuedJob(long id, LaneRecord lane, String verb) {
        Job job = pendingJob(id, verb);
        if (!lane.name().equals(job.lane())) {
            throw NvidbException.conflict("job " + id + " is not queued in lane '" + lane.name() + "'"
                    + (job.lane() == null
                            ? "; it is in no lane (put it in with `nvidb queue lane " + lane.name() + " assign " + id + "`)"
                            : "; it is in lane '" + job.lane() + "'"));
        }
        return job;
    }

    private static int indexOf(List<Job> jobs, long id) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() == id) {
                return i;
            }
        }
        throw new IllegalStateException("job " + id + " vanished from its lane");
    }

    private static List<Long> ids(List<Job> jobs) {
        return jobs.stream().map(Job::id).toList();
    }

    private static Map<String, Object> data(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
