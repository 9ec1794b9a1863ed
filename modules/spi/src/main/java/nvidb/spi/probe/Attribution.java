package nvidb.spi.probe;

/** How a driver accounts GPU memory to processes. */
public enum Attribution {
    /** Memory is credited per process: foreign memory is measured. */
    PROCESSES("processes"),
    /** Memory is credited to no process (WSL): the foreign share is inferred from reservations. */
    BLIND("blind");

    private final String label;

    Attribution(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
