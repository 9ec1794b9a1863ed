package nvidb.core.scheduler;

import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/**
 * Decides whether a pending job's dependencies let it run. A job is held when any of its
 * {@code --after} dependencies ended badly or vanished, whatever the order of the list
 * ({@code decisions.md} §6); {@code --after-any} only needs its jobs to have ended.
 */
public final class DependencyGate {

    /** The verdict for one job; {@code holdReason} is set only for {@link Verdict#HELD}. */
    public record Outcome(Verdict verdict, String holdReason) {
        static final Outcome READY = new Outcome(Verdict.READY, null);
        static final Outcome WAITING = new Outcome(Verdict.WAITING, null);
    }

    public enum Verdict { READY, WAITING, HELD }

    private DependencyGate() {
    }

    public static Outcome evaluate(Job job, Map<Long, Job> jobsById) {
        boolean waiting = false;
        for (long dep : job.dependsOn()) {
            Job d = jobsById.get(dep);
            if (d == null) {
                return held("dependency " + dep + " no longer exists");
            }
            if (d.state().terminal() && d.state() != JobState.COMPLETED) {
                return held("dependency " + dep + " ended as " + d.state().label());
            }
            waiting |= d.state().active();
        }
        for (long dep : job.dependsAny()) {
            Job d = jobsById.get(dep);
            if (d == null) {
                return held("dependency " + dep + " no longer exists");
            }
            waiting |= d.state().active();
        }
        return waiting ? Outcome.WAITING : Outcome.READY;
    }

    private static Outcome held(String reason) {
        return new Outcome(Verdict.HELD, reason);
    }
}
