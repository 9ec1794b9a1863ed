package nvidb.tui.model;

/** What the main area shows and what j/k move through; Tab goes round them. */
public enum Pane {
    JOBS, NODES, LANES;

    public Pane next() {
        return Cycles.next(this);
    }
}
