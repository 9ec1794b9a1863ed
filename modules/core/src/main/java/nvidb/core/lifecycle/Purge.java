package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.store.Store;

/**
 * The move that ends a job's record ({@link Transition#PURGE}, {@code job purge}): finished jobs
 * are deleted, except those a pending or running job still waits on. Its events, alerts and kill
 * obligations stay (reference-scheduler.md §2.9). Apart from {@link JobLifecycle}, whose moves
 * each act on one job, as this one acts on many at once.
 *
 * <p>One {@code job_purged} event records each purge that removed anything, with the count and
 * the ids in its data, rather than one event per job: a purge is one command, often over
 * thousands of finished sweep runs, and the jobs' own events (kept) already say how each ended.
 */
public final class Purge {
    private final Store store;

    public Purge(Store store) {
        this.store = store;
    }

    /**
     * Deletes the jobs in one of {@code states} that {@link Transition#PURGE} allows (a state it
     * does not allow matches nothing), keeping any a pending or running job names in its
     * {@code --after} or {@code --after-any}. Returns the ids removed, ascending.
     */
    public List<Long> finished(Set<JobState> states, Instant now) {
        return store.db.write(() -> {
            Set<Long> referenced = new HashSet<>();
            for (Job j : store.jobs.active()) {
                referenced.addAll(j.dependsOn());
                referenced.addAll(j.dependsAny());
            }
            List<Long> removed = new ArrayList<>();
            for (Job j : store.jobs.inStates(states)) {
                if (Transition.PURGE.allows(j) && !referenced.contains(j.id()) && store.jobs.delete(j.id()) > 0) {
                    removed.add(j.id());
                }
            }
            if (!removed.isEmpty()) {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("count", removed.size());
                data.put("ids", removed);
                data.put("states", states.stream().filter(Transition.PURGE::allows).sorted().map(JobState::label).toList());
                store.events.append(now, EventKind.JOB_PURGED, null, null,
                        "removed " + removed.size() + " finished job record(s)", data);
            }
            return List.copyOf(removed);
        });
    }
}
