package nvidb.core.node;

/**
 * What a launch round trip said.
 *
 * @param error   set when no pid came back
 * @param refused the node said nothing started (see {@link #refused()})
 * @param pgid   the job's process group, known only when it was started with setsid
 */
public record LaunchResult(String runDir, Integer pid, Integer pgid, boolean adopted, String error,
                           boolean refused) {

    public static LaunchResult parse(String stdout, String stderr) {
        String dir = null;
        Integer pid = null;
        Integer pgid = null;
        boolean setsid = false;
        boolean adopted = false;
        String error = null;
        for (String line : stdout.split("\n")) {
            String l = line.strip();
            if (l.startsWith("NVIDB_DIR=")) {
                dir = l.substring(10);
            } else if (l.startsWith("NVIDB_PID=")) {
                pid = NodeProbeScript.intOrNull(l.substring(10));
            } else if (l.startsWith("NVIDB_PGID=")) {
                pgid = NodeProbeScript.intOrNull(l.substring(11));
            } else if (l.startsWith("NVIDB_SETSID=")) {
                setsid = l.substring(13).strip().equals("1");
            } else if (l.equals("NVIDB_ADOPTED=1")) {
                adopted = true;
            } else if (l.startsWith("NVIDB_ERROR=")) {
                error = l.substring(12);
            }
        }
        if (pid == null && error == null) {
            String why = !stderr.isBlank() ? stderr.strip() : stdout.strip();
            error = why.isEmpty() ? "the node reported no pid" : why.length() > 400 ? why.substring(0, 400) : why;
        }
        // A job started without setsid shares its group with the shell that started it: never signal that group.
        return new LaunchResult(dir, pid, setsid ? pgid : null, adopted, pid == null ? error : null,
                pid == null && stdout.contains("NVIDB_ERROR="));
    }

    public boolean started() {
        return pid != null;
    }

    /**
     * Not started, and the node said so (NVIDB_ERROR): nothing runs there, so another node may
     * be tried. An answer with neither a pid nor an error (cut short, or garbled) proves nothing:
     * the job may have started.
     */
    public boolean refused() {
        return refused;
    }
}
