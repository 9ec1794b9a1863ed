package nvidb.core.app;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Keeper;
import nvidb.core.api.Queue;
import nvidb.core.api.Times;
import nvidb.core.view.AlertView;
import nvidb.core.view.JobStream;
import nvidb.core.view.JobView;
import nvidb.core.view.LaneView;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
import nvidb.core.view.StatusDocument;
import nvidb.core.view.StatusSummary;
import nvidb.core.view.UserView;

/**
 * Builds {@code queue status}, the one place its reads are made: the document the CLI and the web
 * print ({@link #build}), and the same as values for the TUI ({@link #view}).
 */
final class StatusReport {
    /** Held jobs (pending ones waiting for a decision). */
    private static final JobQuery HELD = new JobQuery(EnumSet.of(JobState.PENDING), true, null, null, 0);

    private StatusReport() {
    }

    static StatusDocument build(Queue queue, Keeper keeper, StatusQuery q, Instant now) {
        JobQueries jobs = queue.jobQueries();
        JobQueries.AlertPage alerts = jobs.alerts(false, q.alerts());
        return new StatusDocument(Times.iso(now), queue.info().database().toString(), q.queueHost(),
                Times.iso(queue.lastTickAt()), Times.iso(queue.backups().lastBackupAt().orElse(null)),
                QueueDocuments.TickLock.of(queue.tickLease()), QueueDocuments.Daemon.of(queue.daemon()),
                QueueDocuments.KeeperState.of(keeper.state()), QueueDocuments.Settings.of(queue.info()),
                jobs.countsByState(), new JobStream(jobs, HELD, true, now),
                queue.nodeAdmin().nodes(q.includeIgnored()).stream().map(v -> NodeView.of(v, true)).toList(),
                queue.laneQueries().list(null).stream().map(v -> LaneView.Detail.of(v, now)).toList(),
                new JobStream(jobs, Application.ACTIVE, true, now), JobView.of(recent(jobs, q.recent()), now),
                alerts.alerts().stream().map(AlertView.Listed::of).toList(), alerts.open(),
                queue.nodeAdmin().pendingReaps(), UserView.of(queue.users()));
    }

    static StatusSummary summary(Queue queue, Keeper keeper, StatusQuery q, Instant now) {
        JobQueries jobs = queue.jobQueries();
        JobQueries.AlertPage alerts = jobs.alerts(false, q.alerts());
        return new StatusSummary(Times.iso(now), q.queueHost(), Times.iso(queue.lastTickAt()),
                QueueDocuments.Daemon.of(queue.daemon()), QueueDocuments.KeeperState.of(keeper.state()),
                jobs.countsByState(), jobs.jobs(HELD).jobs().size(),
                queue.nodeAdmin().nodes(q.includeIgnored()).stream().map(v -> NodeView.of(v, true)).toList(),
                alerts.alerts().stream().map(AlertView.Listed::of).toList(), alerts.open());
    }

    static StatusValues values(Queue queue, Keeper keeper, StatusQuery q, Instant now) {
        JobQueries jobs = queue.jobQueries();
        List<Job> finished = List.of();
        if (q.finished() > 0) {
            Set<JobState> ended = EnumSet.allOf(JobState.class);
            ended.removeIf(JobState::active);
            finished = jobs.jobs(new JobQuery(ended, false, null, null, q.finished())).jobs();
        }
        return new StatusValues(now, queue.info(), queue.lastTickAt(), queue.backups().lastBackupAt().orElse(null),
                queue.daemon(), keeper.state(), jobs.countsByState(), jobs.jobs(Application.ACTIVE).jobs().reversed(),
                recent(jobs, q.recent()), finished, queue.nodeAdmin().nodes(q.includeIgnored()),
                queue.laneQueries().list(null), jobs.alerts(false, q.alerts()), queue.users());
    }

    /** Finished jobs among the newest {@code among}, at most 10, newest first. */
    static List<Job> recent(JobQueries jobs, int among) {
        return jobs.jobs(new JobQuery(EnumSet.noneOf(JobState.class), false, null, null, among)).jobs()
                .stream().filter(j -> j.state().terminal()).limit(10).toList();
    }
}
