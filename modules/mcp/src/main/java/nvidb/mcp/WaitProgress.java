package nvidb.mcp;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import nvidb.core.api.Job;

/**
 * Turns a look of a wait into a progress notification when something changed. The wait hands over
 * the first job still going, the very object of the look before when the database had not changed:
 * then nothing is read or sent, but for a notification every {@link #HEARTBEAT_NANOS} (a client may reset
 * its request timeout on progress). Else the notification names every job still going, read again.
 */
final class WaitProgress implements Consumer<Job> {
    private final ToolCall.Progress progress;
    private final Supplier<List<Job>> going;
    static final long HEARTBEAT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    private long step;
    private Job last;
    private long lastAt;

    WaitProgress(ToolCall.Progress progress) {
        this(progress, null);
    }

    WaitProgress(ToolCall.Progress progress, Supplier<List<Job>> going) {
        this.progress = progress;
        this.going = going;
    }

    @Override
    public void accept(Job first) {
        long now = System.nanoTime();
        if (first == last && now - lastAt < HEARTBEAT_NANOS) {
            return;
        }
        last = first;
        lastAt = now;
        List<Job> still = going == null ? List.of(first) : going.get();
        progress.report(++step, Waits.progressLine(still.isEmpty() ? List.of(first) : still));
    }
}
