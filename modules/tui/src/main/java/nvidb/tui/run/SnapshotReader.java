package nvidb.tui.run;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries.AlertPage;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;
import nvidb.tui.model.Snapshot;

/**
 * Reads one {@link Snapshot} through the same queries as {@code queue status}, {@code job ls} and
 * {@code queue lanes}: database reads only, no node contact, so it is quick however the nodes are.
 */
final class SnapshotReader {
    /** How many finished jobs the table can show (filter all / finished), newest first. */
    static final int FINISHED = 200;
    static final int ALERTS = 20;

    private SnapshotReader() {
    }

    static Snapshot read(Queue q) {
        Queue.Info info = q.info();
        List<Job> active = q.jobQueries().jobs(new JobQuery(Set.of(JobState.PENDING, JobState.RUNNING), false, null,
                null, 0)).jobs();
        Set<JobState> ended = EnumSet.allOf(JobState.class);
        ended.removeIf(JobState::active);
        List<Job> finished = q.jobQueries().jobs(new JobQuery(ended, false, null, null, FINISHED)).jobs();
        AlertPage alerts = q.jobQueries().alerts(false, ALERTS);
        return new Snapshot(Instant.now(), info.database().toString(), q.lastTickAt(), info.headroomMb(),
                q.nodeAdmin().nodes(false), active, finished, q.laneQueries().list(null), alerts.alerts(), alerts.open());
    }
}
