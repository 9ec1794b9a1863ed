package nvidb.core.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;

/**
 * Who may change a job: the OS account that submitted it (its {@code user}) and the accounts of
 * {@code queue.admins}; everyone may read everything. A job from before accounts were recorded has
 * no owner and anyone may change it; on a queue only one account uses, nothing is ever refused. The
 * rule lives here, once for every front end: each action of the application layer asks it first.
 */
final class Ownership {
    private final Queue queue;

    Ownership(Queue queue) {
        this.queue = queue;
    }

    /** Why {@code caller} may not {@code action} {@code job}, or null when they may. */
    String refusal(Caller caller, Job job, String action) {
        if (caller == null || job.user() == null || job.user().equals(caller.account())
                || queue.info().admins().contains(caller.account())) {
            return null;
        }
        return "job " + job.id() + " is " + job.user() + "'s: only " + job.user() + " or an account of queue.admins may "
                + action + " it (you are " + caller.account() + ")";
    }

    /** Refuses with {@code forbidden} (exit 77) when {@code caller} may not {@code action} job {@code id}; an unknown id passes (the action says not found). */
    void require(Caller caller, long id, String action) {
        List<Job> found = queue.jobQueries().jobsById(List.of(id));
        String why = found.isEmpty() ? null : refusal(caller, found.getFirst(), action);
        if (why != null) {
            throw NvidbException.forbidden(why);
        }
    }

    /**
     * The ids of {@code ids} the caller may act on, in order, and an outcome for each one they may
     * not (keyed by id): an operation on several jobs acts on the first and reports the others.
     */
    Split split(Caller caller, List<Long> ids, String action) {
        Map<Long, Job> jobs = new HashMap<>();
        queue.jobQueries().jobsById(ids).forEach(j -> jobs.put(j.id(), j));
        List<Long> allowed = new ArrayList<>();
        Map<Long, Verdicts.Item> refused = new HashMap<>();
        for (long id : ids) {
            Job j = jobs.get(id);
            String why = j == null ? null : refusal(caller, j, action);
            if (why == null) {
                allowed.add(id);
            } else {
                refused.put(id, new Verdicts.Item(id, false, j.state().label(), why, ErrorCode.FORBIDDEN));
            }
        }
        return new Split(allowed, refused);
    }

    /** What {@link #split} decided. */
    record Split(List<Long> allowed, Map<Long, Verdicts.Item> refused) {
        /**
         * Each id's item in the order asked: a refused one's, else the next of {@code done} (the
         * action's items for {@link #allowed}, in their order).
         */
        List<Verdicts.Item> merge(List<Long> ids, List<Verdicts.Item> done) {
            List<Verdicts.Item> out = new ArrayList<>();
            int next = 0;
            for (long id : ids) {
                Verdicts.Item r = refused.get(id);
                out.add(r != null ? r : done.get(next++));
            }
            return out;
        }
    }
}
