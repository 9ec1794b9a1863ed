package nvidb.tui.run;

import nvidb.core.app.StatusQuery;
import nvidb.core.app.StatusValues;
import nvidb.tui.model.Snapshot;

/**
 * Reads one {@link Snapshot}: {@code queue status}'s reads (the application layer's status, as
 * values), with the TUI's own limits; database reads only, no node contact, so it is quick however
 * the nodes are.
 */
final class SnapshotReader {
    /** How many finished jobs the table can show (filter all / finished), newest first. */
    static final int FINISHED = 200;
    static final int ALERTS = 20;

    private SnapshotReader() {
    }

    static Snapshot read(Session s) {
        StatusValues v = s.app().statusValues(s.caller(), new StatusQuery(false, null, 0, ALERTS, FINISHED));
        // The table's rows newest first, as job ls lists them.
        return new Snapshot(v.at(), v.info().database().toString(), v.lastTickAt(), v.info().headroomMb(), v.nodes(),
                v.active().reversed(), v.finished(), v.lanes(), v.alerts().alerts(), v.alerts().open(), v.users(),
                v.info().fairshare());
    }
}
