package nvidb.core.util;

import java.util.Map;

/**
 * Who submits a job when {@code --submitter} does not say: {@code $NVIDB_SUBMITTER}, else
 * {@code user@host:pid} of this process. A client forwarding to its queue host works it out on
 * its own side and sends it along, so that the host records the client, not itself.
 */
public final class Submitter {
    private Submitter() {
    }

    public static String of(Map<String, String> env) {
        String s = env.get("NVIDB_SUBMITTER");
        if (s != null && !s.isBlank()) {
            return s;
        }
        String user = env.getOrDefault("USER", System.getProperty("user.name"));
        return user + "@" + Hostname.get() + ":" + ProcessHandle.current().pid();
    }
}
