package nvidb.cli.commands;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import nvidb.cli.context.Interrupted;
import nvidb.cli.output.Output;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;

/**
 * Waiting for jobs to end, shared by {@code job wait} and {@code job submit --wait}: a
 * rate-limited pass every two seconds, the status line on a terminal's stderr, never in JSON.
 */
final class Waiting {
    static final Duration POLL = Duration.ofSeconds(2);

    record Outcome(List<Job> jobs, boolean timedOut) {
        boolean allDone() {
            return jobs.stream().allMatch(j -> j.state().terminal());
        }

        boolean allSucceeded() {
            return jobs.stream().allMatch(j -> j.state() == nvidb.core.api.JobState.COMPLETED);
        }

        /** 0 all completed, 1 one ended badly, 2 the timeout ran out with work still going. */
        int exitCode() {
            return timedOut ? 2 : allSucceeded() ? 0 : 1;
        }
    }

    private Waiting() {
    }

    static Outcome until(Queue service, List<Long> ids, Integer timeoutSeconds, Output out) {
        Instant deadline = timeoutSeconds == null || timeoutSeconds <= 0 ? null
                : Instant.now().plusSeconds(timeoutSeconds);
        boolean terminal = System.console() != null;
        while (true) {
            service.tick(TickMode.AUTO);
            List<Job> jobs = service.jobQueries().jobsById(ids);
            if (jobs.size() != ids.stream().distinct().count()) {
                throw NvidbException.notFound("job(s) disappeared while waiting: "
                        + ids.stream().filter(id -> jobs.stream().noneMatch(j -> j.id() == id)).toList());
            }
            Outcome o = new Outcome(jobs, false);
            if (o.allDone()) {
                return o;
            }
            if (deadline != null && !Instant.now().isBefore(deadline)) {
                return new Outcome(jobs, true);
            }
            if (terminal && !out.json()) {
                Job first = jobs.stream().filter(j -> !j.state().terminal()).findFirst().orElseThrow();
                out.err().print("\r\u001b[2Kwaiting: job " + first.id() + " " + first.displayState()
                        + (first.progress() == null ? "" : "  " + first.progress()));
                out.err().flush();
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Interrupted();
            }
        }
    }
}
