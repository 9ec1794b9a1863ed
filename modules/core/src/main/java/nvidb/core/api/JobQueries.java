package nvidb.core.api;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Reading the queue: jobs, one job with its events, the event log, alerts, counts and job logs. */
public interface JobQueries {
    Job job(long id);

    record JobPage(List<Job> jobs, int limit) {
    }

    JobPage jobs(JobQuery q);

    /**
     * The jobs {@link #jobs} lists, each handed to {@code sink} as the database reads it, so that
     * a listing of a big queue never holds it all: newest first, or oldest first with
     * {@code oldestFirst} (with a limit, still the newest that many). Returns how many it handed
     * over. A node that does not resolve is refused before the first job.
     */
    int eachJob(JobQuery q, boolean oldestFirst, Consumer<? super Job> sink);

    List<Job> jobsById(List<Long> ids);

    /**
     * @param batch the batch node's word on the job when one holds it or held it (Slurm), else null
     */
    record JobDetail(Job job, List<Event> events, BatchInfo batch) {
    }

    /**
     * A job as the batch system of a batch node (Slurm) knows it.
     *
     * @param id     the batch system's id of it
     * @param state  the batch system's word at the last pass ({@code PENDING}, {@code RUNNING}…)
     * @param reason why it waits there, as shown ({@code slurm: Resources}), or null
     */
    record BatchInfo(String node, String id, String state, String reason) {
    }

    JobDetail show(long id);

    /**
     * A page of the event log. {@code lastId} is what to pass as the next {@code since}: the newest
     * event's id on this page, else the {@code since} asked for, else 0 (no events yet).
     */
    record EventPage(List<Event> events, long lastId) {
    }

    EventPage events(Long since, Long jobId, int limit);

    record AlertPage(List<Alert> alerts, long open) {
    }

    AlertPage alerts(boolean all, int limit);

    Map<String, Long> countsByState();

    /** Running jobs whose GPUs have sat idle for {@code queue.idle_after} or longer (0 when that is off). */
    int idleJobs();

    /** The last {@code lines} lines of a job's stdout or stderr, read from its node. */
    String logs(long id, boolean stderr, int lines);
}
