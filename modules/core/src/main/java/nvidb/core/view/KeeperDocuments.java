package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import nvidb.core.view.QueueDocuments.Daemon;
import nvidb.core.view.QueueDocuments.KeeperState;

/** The documents of {@code queue keeper …}. */
public final class KeeperDocuments {
    private KeeperDocuments() {
    }

    /**
     * {@code keeper status}: the reference prints the keeper's state itself; ours adds it whole as
     * {@code keeper}, the daemon, and {@code moving} (the keeper is up or a daemon serves the queue).
     */
    public record Status(@JsonUnwrapped KeeperState state, KeeperState keeper, Daemon daemon, boolean moving) {
    }

    /**
     * {@code keeper install}: the reference's keys first ({@code ok, script, nvidb, interval,
     * manager, unit, log, state}, {@code replaced}, {@code started}, {@code start_error}), then
     * ours; {@code started} null without {@code --start}.
     */
    public record Installed(boolean ok, String script, String nvidb, int interval, String manager, String unit,
                            String log, KeeperState state, List<String> files, boolean replaced, String runs,
                            Boolean started, String startError, KeeperState keeper) {
    }

    /**
     * The reference's answer to a keeper action ({@code ensure}, {@code stop}, {@code uninstall}),
     * {@code {ok, action, output, state}} ({@code output}: the keeper in a sentence; {@code removed}
     * by uninstall), with our {@code keeper} (the same state) beside it.
     */
    public record Answer(boolean ok, String action, String output, @JsonInclude(Include.NON_NULL) List<String> removed,
                         KeeperState state, KeeperState keeper) {
    }

    /** {@code keeper logs}: the reference's {@code {ok, action, output, state}}; lines: the same log, a line an item. */
    public record Logs(boolean ok, String action, String output, KeeperState state, List<String> lines) {
    }
}
