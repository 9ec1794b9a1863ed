package nvidb.tui.model;

/** How much of each GPU's process list the node cards show; {@code p} goes round them. */
public enum ProcsMode {
    SUMMARY, ALL, OFF;

    public String label() {
        return Cycles.label(this);
    }

    public ProcsMode next() {
        return Cycles.next(this);
    }
}
