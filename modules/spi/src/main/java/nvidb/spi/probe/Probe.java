package nvidb.spi.probe;

/**
 * Reads a node's GPUs. Core builds one round-trip script per node per pass; a probe contributes
 * the shell fragment that prints its section and later parses what that fragment printed. It
 * never runs anything itself, so a pass costs one round trip whatever the probe is.
 */
public interface Probe {

    /**
     * A POSIX shell fragment printing the GPU section to stdout. It must not exit the script;
     * failures of the tool are reported in its own output for {@link #parse} to explain.
     */
    String script();

    /** Parses what {@link #script()} printed. Never throws on odd cells: unknown is null. */
    GpuReport parse(String output);

    /**
     * A POSIX shell fragment for the lane runner, which checks its cards on the node just before
     * it starts a job: prints one line {@code INDEX FREE_MIB} per GPU whose free memory the tool
     * can measure, and nothing for one it cannot (the runner then goes by the controller's last
     * word for that card). Like {@link #script()} it must not exit and reads nothing from stdin.
     * The default measures nothing.
     */
    default String freeMemoryScript() {
        return "";
    }
}
