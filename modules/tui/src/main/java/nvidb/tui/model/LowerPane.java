package nvidb.tui.model;

/** The pane under the table: nothing, the selected job's detail (Enter) or its log tail (L). */
public enum LowerPane {
    NONE, DETAIL, STDOUT, STDERR;

    public boolean log() {
        return this == STDOUT || this == STDERR;
    }
}
