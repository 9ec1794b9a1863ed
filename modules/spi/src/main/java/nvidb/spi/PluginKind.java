package nvidb.spi;

/** The five kinds of plugin, with the names {@code nvidb plugins} prints. */
public enum PluginKind {
    PROBE("probe"),
    TRANSPORT("transport"),
    PLACEMENT("placement"),
    ALERT_SINK("alert_sink"),
    BATCH_SCHEDULER("batch_scheduler");

    private final String label;

    PluginKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
