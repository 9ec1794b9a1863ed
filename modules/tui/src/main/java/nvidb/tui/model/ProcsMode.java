package nvidb.tui.model;

/** How much of each GPU's process list the node cards show; {@code p} goes round them. */
public enum ProcsMode {
    SUMMARY("summary"), ALL("all"), OFF("off");

    private final String label;

    ProcsMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public ProcsMode next() {
        return values()[(ordinal() + 1) % values().length];
    }
}
