package nvidb.mcp;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import nvidb.core.api.Job;

/**
 * Turns each look of a wait into a progress notification. The wait hands over the first job still
 * going; the notification names every job still going, read again (a query of a few rows).
 */
final class WaitProgress implements Consumer<Job> {
    private final ToolCall.Progress progress;
    private final Supplier<List<Job>> going;
    private long step;

    WaitProgress(ToolCall.Progress progress) {
        this(progress, null);
    }

    WaitProgress(ToolCall.Progress progress, Supplier<List<Job>> going) {
        this.progress = progress;
        this.going = going;
    }

    @Override
    public void accept(Job first) {
        List<Job> still = going == null ? List.of(first) : going.get();
        progress.report(++step, Waits.progressLine(still.isEmpty() ? List.of(first) : still));
    }
}
