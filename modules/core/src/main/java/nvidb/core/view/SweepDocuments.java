package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Sweeps;
import nvidb.core.api.Times;

/**
 * The documents of {@code job sweep} and the {@code sweep} commands. A run's metrics are a map:
 * their names are whatever numbers the run's {@code result.json} holds.
 */
public final class SweepDocuments {
    private SweepDocuments() {
    }

    /** A sweep as it was submitted: its template, parameter names, how the runs were made, its limit. */
    public record SweepView(long id, String name, String command, List<String> params, Map<String, Object> spec,
                            Integer maxParallel, String submitter, String idempotencyKey, String createdAt) {
        public static SweepView of(Sweeps.Sweep s) {
            return new SweepView(s.id(), s.name(), s.command(), s.params(), s.spec(), s.maxParallel(), s.submitter(),
                    s.idempotencyKey(), Times.iso(s.createdAt()));
        }
    }

    /** A sweep with its runs' counts by state and its age: {@code sweep ls}, {@code sweep wait}. */
    public record Summary(@JsonUnwrapped SweepView sweep, int runs, Map<String, Integer> states, Long ageS) {
        public static Summary of(Sweeps.Summary s, Instant now) {
            Instant created = s.sweep().createdAt();
            return new Summary(SweepView.of(s.sweep()), s.runs(), s.states(),
                    created == null ? null : Math.max(0, Duration.between(created, now).toSeconds()));
        }
    }

    /** One expanded run, as a submit or a dry run prints it ({@code job_id} null in a dry run). */
    public record Run(int index, Long jobId, String name, Map<String, String> params, String command) {
        public static Run of(Sweeps.Run r) {
            return new Run(r.index(), r.jobId(), r.name(), r.params(), r.command());
        }
    }

    /** One row of {@code sweep show} and {@code sweep export --jsonl}. */
    public record Row(int index, Long jobId, String name, Map<String, String> params, String state, Integer exitCode,
                      Double elapsedS, String progress, Map<String, Double> metrics, JsonNode result, boolean best,
                      Long vramMb, Integer peakVramMb, Double meanUtilPercent) {
        public static Row of(Sweeps.Row r, Integer best, Instant now) {
            Sweeps.RunStatus j = r.status();
            Double elapsed = j.elapsedSeconds(now);
            return new Row(r.run().index(), r.run().jobId(), r.run().name(), r.run().params(), j.state(), j.exitCode(),
                    elapsed == null ? null : Math.round(elapsed * 10) / 10.0, j.progress(), r.metrics(),
                    StoredJson.parsed(j.resultJson()), best != null && best == r.run().index(), j.vramMb(), j.peakVramMb(),
                    j.meanUtilPercent());
        }
    }

    /** {@code job sweep}: the sweep and its runs (nothing stored with {@code --dry-run}). */
    public record Submitted(boolean ok, boolean dryRun, boolean duplicate, SweepView sweep, List<Run> runs,
                            TickView tick) {
    }

    /** {@code sweep ls}. */
    public record Listed(List<Summary> sweeps) {
    }

    /** {@code sweep show}: the summary's keys, the metric columns, the best run, then the rows. */
    public record Shown(@JsonUnwrapped Summary summary, List<String> metricColumns, String metric, Integer bestIndex,
                        List<Row> rows) {
    }

    /** {@code sweep wait}. */
    public record Waited(boolean ok, Summary sweep, List<Long> jobIds, boolean allDone, boolean allSucceeded,
                         boolean timedOut, boolean interrupted) {
    }

    /** {@code sweep cancel}. */
    public record Cancelled(boolean ok, long sweepId, List<Long> cancelled) {
    }

    /** {@code sweep requeue}. */
    public record Requeued(boolean ok, long sweepId, List<Long> requeued, TickView tick) {
    }
}
