package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import nvidb.core.view.QueueDocuments.Daemon;
import nvidb.core.view.QueueDocuments.KeeperState;

/** The documents of {@code queue keeper …}. */
public final class KeeperDocuments {
    private KeeperDocuments() {
    }

    /** {@code keeper status}: {@code moving} while the keeper is up or a daemon serves the queue. */
    public record Status(KeeperState keeper, Daemon daemon, boolean moving) {
    }

    /** {@code keeper install}; {@code started} null without {@code --start}. */
    public record Installed(boolean ok, List<String> files, boolean replaced, String runs, Boolean started,
                            String startError, KeeperState keeper) {
    }

    /** {@code keeper stop|uninstall}; {@code removed} by uninstall. */
    public record Changed(boolean ok, @JsonInclude(Include.NON_NULL) List<String> removed, KeeperState keeper) {
    }

    /** {@code keeper logs}. */
    public record Logs(List<String> lines) {
    }
}
