package nvidb.tui.run;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries.AlertPage;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Caller;
import nvidb.core.api.Queue;
import nvidb.core.app.Application;
import nvidb.tui.model.Snapshot;

/**
 * Reads one {@link Snapshot} through the application layer's reads that {@code queue status},
 * {@code job ls} and {@code queue lanes} use, with the TUI's own limits: database reads only, no
 * node contact, so it is quick however the nodes are.
 */
final class SnapshotReader {
    /** How many finished jobs the table can show (filter all / finished), newest first. */
    static final int FINISHED = 200;
    static final int ALERTS = 20;

    private SnapshotReader() {
    }

    static Snapshot read(Session s) {
        Application app = s.app();
        Caller c = s.caller();
        Queue.Info info = app.info();
        List<Job> active = app.jobList(c, new JobQuery(Set.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0));
        Set<JobState> ended = EnumSet.allOf(JobState.class);
        ended.removeIf(JobState::active);
        List<Job> finished = app.jobList(c, new JobQuery(ended, false, null, null, FINISHED));
        AlertPage alerts = app.alertPage(c, false, ALERTS);
        return new Snapshot(Instant.now(), info.database().toString(), app.lastTickAt(), info.headroomMb(),
                app.nodeViews(c, false), active, finished, app.laneViews(c, null), alerts.alerts(), alerts.open());
    }
}
