package nvidb.cli.commands;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;

/**
 * Waiting for jobs to end, shared by {@code job wait}, {@code sweep wait} and {@code job submit --wait}:
 * a rate-limited pass every two seconds (none after {@code --no-tick}), the status line on a
 * terminal's stderr, never in JSON.
 */
final class Waiting {
    static final Duration POLL = Duration.ofSeconds(2);

    /** {@code interrupted}: Ctrl-C or SIGTERM ended the wait; the jobs keep going. */
    record Outcome(List<Job> jobs, boolean timedOut, boolean interrupted) {
        boolean allDone() {
            return jobs.stream().allMatch(j -> j.state().terminal());
        }

        boolean allSucceeded() {
            return jobs.stream().allMatch(j -> j.state() == nvidb.core.api.JobState.COMPLETED);
        }

        /** 0 all completed, 1 one ended badly, 2 the timeout ran out with work still going, 130 interrupted. */
        int exitCode() {
            return interrupted ? ErrorCode.INTERRUPTED.exitCode() : timedOut ? 2 : allSucceeded() ? 0 : 1;
        }

        /** The sentence a person sees after an interrupted wait (JSON says {@code "interrupted": true}). */
        String interruptedNote() {
            String going = jobs.stream().filter(j -> !j.state().terminal()).map(j -> String.valueOf(j.id()))
                    .collect(Collectors.joining(" "));
            return "waiting interrupted; nothing was cancelled"
                    + (going.isEmpty() ? "" : ": job(s) " + going + " keep going (nvidb job wait " + going + ")");
        }
    }

    private Waiting() {
    }

    /**
     * @param firstPass the first pass's mode (the command's {@code --tick}/{@code --no-tick}); the later
     *                  ones are rate-limited, or none at all after {@code --no-tick} (a daemon, or another
     *                  client, moves the jobs on)
     */
    static Outcome until(Queue service, List<Long> ids, Integer timeoutSeconds, Output out, TickMode firstPass) {
        TickMode mode = firstPass;
        Instant deadline = timeoutSeconds == null || timeoutSeconds <= 0 ? null
                : Instant.now().plusSeconds(timeoutSeconds);
        boolean terminal = out.terminal();
        while (true) {
            try {
                service.tick(mode);
                mode = firstPass == TickMode.NONE ? TickMode.NONE : TickMode.AUTO;
            } catch (NvidbException e) {
                if (e.code() != ErrorCode.INTERRUPTED) {
                    throw e;
                }
                return interrupted(service, ids, terminal, out);
            }
            List<Job> jobs = service.jobQueries().jobsById(ids);
            if (jobs.size() != ids.stream().distinct().count()) {
                throw NvidbException.notFound("job(s) disappeared while waiting: "
                        + ids.stream().filter(id -> jobs.stream().noneMatch(j -> j.id() == id)).toList());
            }
            Outcome o = new Outcome(jobs, false, false);
            if (o.allDone()) {
                return o;
            }
            if (deadline != null && !Instant.now().isBefore(deadline)) {
                return new Outcome(jobs, true, false);
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
                return interrupted(service, ids, terminal, out);
            }
        }
    }

    /**
     * Ctrl-C or SIGTERM while waiting: the caller must still learn where its jobs stand (a submit
     * has created one by now), so the wait ends with the jobs as they are instead of an error.
     * The interrupt is consumed here: reading the jobs, and their logs after, must still work.
     */
    private static Outcome interrupted(Queue service, List<Long> ids, boolean terminal, Output out) {
        Thread.interrupted();
        if (terminal && !out.json()) {
            out.err().print("\r\u001b[2K");
            out.err().flush();
        }
        return new Outcome(service.jobQueries().jobsById(ids), false, true);
    }
}
