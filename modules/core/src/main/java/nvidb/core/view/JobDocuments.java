package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The documents of the {@code job} commands. A command that acts on several ids answers
 * {@link Several}: the verdict over all of them, then one result per id.
 */
public final class JobDocuments {
    private JobDocuments() {
    }

    /** {@code job submit}; {@code interrupted} only with {@code --wait}. */
    public record Submitted(boolean ok, boolean duplicate, JobView job, TickView tick,
                            @JsonInclude(Include.NON_NULL) Boolean interrupted) {
    }

    /**
     * {@code job submit --dry-run}: what the submit would reserve and where the figure came from,
     * with nothing queued ({@code vram_source} as {@code job show} has it).
     */
    public record Previewed(boolean ok, boolean dryRun, long vramMb, String vram, JsonNode vramSource, String node,
                            String lane, String submitter, int oomRetry) {
    }

    /**
     * {@code job show}: the job, for a job a batch node holds or held its {@code reason} and {@code batch}
     * keys (none otherwise: Jackson writes nothing for a null unwrapped record), its events, and the tail
     * of its log when asked for.
     */
    public record Shown(@JsonUnwrapped JobView job, @JsonUnwrapped BatchView batch, List<EventView> events,
                        @JsonInclude(Include.NON_NULL) String logTail) {
    }

    /** {@code job edit}. */
    public record Edited(boolean ok, boolean changed, JobView job, TickView tick) {
    }

    /** Whether every id was acted on; else why not, for the most serious outcome. */
    public record Verdict(boolean ok, @JsonInclude(Include.NON_NULL) String error,
                          @JsonInclude(Include.NON_NULL) String code) {
    }

    /** One id's outcome: {@code state} afterwards (null: no such job), and why it was not acted on. */
    public record Item(long id, boolean ok, String state, @JsonInclude(Include.NON_NULL) String error,
                       @JsonInclude(Include.NON_NULL) String code) {
    }

    /** A command over several ids; {@code tick} where the command runs a pass after acting. */
    public record Several<R>(@JsonUnwrapped Verdict verdict, List<R> results,
                             @JsonInclude(Include.NON_NULL) TickView tick) {
    }

    public record Cancelled(@JsonUnwrapped Item item, boolean cancelled, List<Long> holds) {
    }

    public record Released(@JsonUnwrapped Item item, boolean released, String reason, List<Long> dropped) {
    }

    public record Requeued(@JsonUnwrapped Item item, boolean requeued) {
    }

    /** {@code job wait}. */
    public record Waited(@JsonUnwrapped Verdict verdict, List<Item> results, List<WaitedJob> jobs, boolean allDone,
                         boolean allSucceeded, boolean timedOut, boolean interrupted) {
    }

    /** A job {@code job wait} waited for; {@code log_tail} with {@code --logs} (JSON null: the job has no log). */
    public record WaitedJob(@JsonUnwrapped JobView job, @JsonInclude(Include.NON_NULL) JsonNode logTail) {
    }

    /** {@code job note N} without a change. */
    public record Note(long id, String notes, String progress) {
    }

    /** {@code job note N} with a change. */
    public record Noted(boolean ok, long id, String notes) {
    }

    /** {@code job priority N --up/--down}. */
    public record Moved(long id, boolean moved, int priority, int slot) {
    }

    /** {@code job priority N [VALUE]}; {@code ok} only when it was set. */
    public record Priority(@JsonInclude(Include.NON_NULL) Boolean ok, long id, int priority, String state) {
    }

    /** {@code job purge}. */
    public record Purged(boolean ok, int removed) {
    }

    /** {@code job result N [--set VALUE]}; {@code ok} only when it was set. */
    public record Result(@JsonInclude(Include.NON_NULL) Boolean ok, long id, String state, JsonNode result) {
    }

    /** {@code job logs -f --json}: a chunk of new output, and a last line when the job has ended. */
    public record LogChunk(long id, String stream, String log) {
    }

    public record LogEnd(long id, String stream, boolean summary, String state, Integer exitCode) {
    }
}
